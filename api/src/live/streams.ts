import { randomUUID } from 'node:crypto';
import {
  LIVE_CHAT_HISTORY,
  type GoLive,
  type LiveBroadcaster,
  type LiveSdp,
  type LiveStream,
  type LiveSummary,
} from '@parley/contract/live';
import type { RoomMemberView, RoomMessage } from '@parley/contract/rooms';
import type { RoomAccess } from '../rooms/core.ts';
import { memoryLog } from '../rooms/memoryLog.ts';
import { DomainError } from '../platform/errors.ts';
import type { StreamForwarder } from './sfu.ts';
import { LiveChat } from './chat.ts';
import type { ChannelState } from './channels.ts';
import type { ModerationChange } from '../rooms/moderation.ts';
import { DIRECTORY_REFRESH_MS, memoryStreamDirectory, type DirectoryEntry, type StreamDirectory } from './directory.ts';
import { WatchLimits } from './watchLimits.ts';

/** A stream's media: one forwarder per stream (sfu.ts), or a stand-in in tests of the rules alone (never connected without `viewerConnected`). */
export type Forwarder = Pick<StreamForwarder, 'publish' | 'addViewer' | 'answerViewer' | 'removeViewer' | 'close'> &
  Partial<Pick<StreamForwarder, 'viewerConnected'>>;

/** A viewer has this long from the server's offer to a connection that is up; after it, the offer and its ports go. */
export const ANSWER_TIMEOUT_MS = 15_000;

/** Runs `run` after `ms` unless the returned function cancels it; tests pass a clock they move by hand. */
export type Later = (run: () => void, ms: number) => () => void;
const later: Later = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

/** A broadcaster whose connection dropped has this long to come back before their stream ends. */
export const OWNER_GRACE_MS = 15_000;

/** Ended streams kept so their page can say when they ran. */
const ENDED_KEPT_MS = 24 * 60 * 60 * 1000;

type Stream = {
  info: Omit<LiveStream, 'viewers' | 'hasThumbnail'>;
  forwarder: Forwarder;
  /** Watching now: viewer key (a socket id) → user id. */
  viewers: Map<string, string>;
  /** The people watching, each with their number of viewer keys: a person in two tabs is one viewer. */
  people: Map<string, number>;
  /** Viewer keys whose offer waits for its connection: what withdraws it. */
  unanswered: Map<string, () => void>;
  chat: LiveChat;
  thumbnail?: Buffer;
  published: boolean;
  /** When each viewer key started watching, and when the broadcaster's media first arrived. */
  watchingSince: Map<string, number>;
  publishedAt?: number;
  /** What the broadcaster's summary counts: the most people watching at once, everyone who watched, chat lines, gifts by key. */
  peakViewers: number;
  everWatched: Set<string>;
  messages: number;
  gifts: Map<string, number>;
};

/** A stream's figures as it ended (its summary; new followers are read from the follows). */
export type StreamEnded = Omit<LiveSummary, 'newFollowers'> & { category: string; broadcasterId: string };

/** Time someone spent in a stream: a viewer from watching to leaving, the broadcaster from their media to the end. */
export type LiveSession = { roomId: string; userId: string; role: 'viewer' | 'broadcaster'; from: number; to: number };

/** What the streams tell the people in them; the socket layer delivers it. */
export type LiveOutbox = {
  viewers(roomId: string, viewers: number): void;
  ended(roomId: string, startedAt: number, endedAt: number): void;
  /** A viewer key removed by the rules (banned): its connection should stop watching. */
  dropped(viewerKey: string, roomId: string): void;
  /** A viewer key whose offer went unanswered: it no longer watches, and may ask again. */
  expired?(viewerKey: string, roomId: string): void;
};

/** Streams matching a category and a search (title or broadcaster), the most watched first. */
function sortAndFilter(streams: LiveStream[], filter: { category?: string; q?: string }): LiveStream[] {
  const q = filter.q?.trim().toLowerCase();
  return streams
    .filter((v) => !filter.category || v.category === filter.category)
    .filter((v) => !q || v.title.toLowerCase().includes(q) || v.broadcaster.username.toLowerCase().includes(q))
    .sort((a, b) => b.viewers - a.viewers || a.startedAt - b.startedAt);
}

const notFound = () => new DomainError('not_found', 'This stream does not exist or has ended.', 'stream_not_found');

/**
 * Live streams of this process: who is live, who watches, their chat and its moderation. Free of
 * HTTP and socket.io; the forwarder carries the media.
 */
export class LiveStreams {
  private readonly live = new Map<string, Stream>();
  private readonly byOwner = new Map<string, string>();
  private readonly ended = new Map<string, LiveStream>();
  /** Streams whose broadcaster's connection dropped: the timer that ends them. */
  private readonly ownerAway = new Map<string, ReturnType<typeof setTimeout>>();
  /** The chats of this process's streams: the room core's held log for the kind `live`, counting each stream's chat lines. */
  readonly chatLog = this.countedLog(memoryLog({ capacity: LIVE_CHAT_HISTORY, now: () => this.now() }));

  constructor(
    private readonly deps: {
      forwarder: () => Forwarder;
      outbox: LiveOutbox;
      now?: () => number;
      /** Called once a stream starts, for follower notifications. */
      wentLive?: (stream: LiveStream) => void;
      /** Told once a stream ended, with its figures (kept for its broadcaster's summary); awaited before `end` answers. */
      streamEnded?: (figures: StreamEnded) => Promise<void>;
      /** Called once per session that ended (missions count its minutes). */
      sessionEnded?: (session: LiveSession) => void;
      /** Moves gold from a viewer to the broadcaster (the shop's gift), idempotent by key. */
      gift?: (fromUserId: string, g: { toUserId: string; amount: number; idempotencyKey: string }) => Promise<{ gold: number }>;
      /** Streams of every process (Redis with REDIS_URL); this process writes its own. */
      directory?: StreamDirectory;
      /** This process's name in the directory. */
      node?: string;
      onError?: (err: unknown) => void;
      /** Watches at once per person and per address (its network), across this process's streams. */
      watchLimits?: { perUser: number; perAddress: number };
      /** How long an offer waits for its viewer's connection (ANSWER_TIMEOUT_MS). */
      answerTimeoutMs?: number;
      later?: Later;
    },
  ) {
    this.watches = new WatchLimits(deps.watchLimits);
    this.directory = deps.directory ?? memoryStreamDirectory(() => this.now());
    // Changes are written at most once a second per stream; every stream is written again now and then, so it stays fresh.
    let ticks = 0;
    this.flushTimer = setInterval(() => {
      if (++ticks % Math.round(DIRECTORY_REFRESH_MS / 1000) === 0) for (const id of this.live.keys()) this.dirty.add(id);
      this.flush();
    }, 1000);
    this.flushTimer.unref?.();
  }

  private readonly directory: StreamDirectory;
  private readonly watches: WatchLimits;
  /** Offers being made, by stream and viewer key: the next ask of the same key waits for it. */
  private readonly starting = new Map<string, Promise<unknown>>();
  /** Offers withdrawn since the start because their viewer never connected (for operators). */
  expiredOffers = 0;
  private readonly dirty = new Set<string>();
  private readonly flushTimer: ReturnType<typeof setInterval>;

  private entry(s: Stream): DirectoryEntry {
    return { ...this.view(s), node: this.deps.node ?? 'local', ...(!s.published && { pending: true }) };
  }

  private flush() {
    for (const roomId of this.dirty) {
      const s = this.live.get(roomId);
      if (s) void this.directory.put(this.entry(s)).catch((err: unknown) => this.deps.onError?.(err));
    }
    this.dirty.clear();
  }

  /** Streams of every process, the most watched first (the list page). */
  async listAll(filter: { category?: string; q?: string } = {}): Promise<LiveStream[]> {
    const local = new Map(this.list().map((v) => [v.roomId, v]));
    // This process's own streams are read from memory: the directory may lag them by a second.
    const all = (await this.directory.list())
      .filter((e) => !e.pending)
      .map(({ node: _node, pending: _pending, ...v }) => local.get(v.roomId) ?? v);
    for (const [id, v] of local) if (!all.some((x) => x.roomId === id)) all.push(v);
    return sortAndFilter(all, filter);
  }

  /** A stream of any process, live or ended, or not found. */
  async find(roomId: string): Promise<LiveStream> {
    if (this.live.has(roomId) || this.ended.has(roomId)) return this.get(roomId);
    const e = await this.directory.get(roomId);
    if (!e) throw notFound();
    const { node: _node, pending: _pending, ...view } = e;
    return view;
  }

  /** A stream's picture, from this process or the directory. */
  async findThumbnail(roomId: string): Promise<Buffer | undefined> {
    if (this.live.has(roomId)) return this.thumbnail(roomId);
    return (await this.directory.thumbnail(roomId)) ?? undefined;
  }

  private now() {
    return this.deps.now?.() ?? Date.now();
  }

  /** `channel`: the broadcaster's moderation as stored (channels.ts); without it, nothing carries over. */
  goLive(owner: LiveBroadcaster, ask: GoLive, channel?: ChannelState): LiveStream {
    if (this.byOwner.has(owner.userId))
      throw new DomainError('conflict', 'You are already live. End that stream before starting another.', 'already_live');
    const roomId = randomUUID();
    const stream: Stream = {
      info: { roomId, title: ask.title, category: ask.category, broadcaster: owner, startedAt: this.now() },
      forwarder: this.deps.forwarder(),
      viewers: new Map(),
      people: new Map(),
      unanswered: new Map(),
      chat: new LiveChat(roomId, owner.userId, this.chatLog, channel),
      published: false,
      watchingSince: new Map(),
      peakViewers: 0,
      everWatched: new Set(),
      messages: 0,
      gifts: new Map(),
    };
    this.live.set(roomId, stream);
    this.byOwner.set(owner.userId, roomId);
    // Listed once published; meanwhile the directory names its holder, for a publish that reaches another process.
    void this.directory.put(this.entry(stream)).catch((err: unknown) => this.deps.onError?.(err));
    return this.view(stream);
  }

  /** The broadcaster's media offer; anyone else is refused. */
  async publish(userId: string, roomId: string, offer: LiveSdp): Promise<LiveSdp> {
    const s = this.owned(userId, roomId);
    const answer = await s.forwarder.publish(offer);
    if (!s.published) {
      s.published = true;
      s.publishedAt = this.now();
      void this.directory.put(this.entry(s)).catch((err: unknown) => this.deps.onError?.(err));
      this.deps.wentLive?.(this.view(s));
    }
    return answer;
  }

  /**
   * A viewer key starts watching: the SFU's offer. Its person and address must have watches to
   * spare (counted before the offer is made, so parallel asks cannot slip past), and the offer is
   * withdrawn if no connection follows in ANSWER_TIMEOUT_MS.
   */
  async watch(userId: string, viewerKey: string, roomId: string, address?: string, media = true) {
    // One offer at a time per socket and stream: a second ask waits for the first, then replaces
    // it (counting both as new would let one socket count twice).
    const key = `${roomId} ${viewerKey}`;
    const before = this.starting.get(key);
    const run = (before ?? Promise.resolve()).catch(() => undefined).then(() => this.offer(userId, viewerKey, roomId, address, media));
    this.starting.set(key, run);
    try {
      return await run;
    } finally {
      if (this.starting.get(key) === run) this.starting.delete(key);
    }
  }

  private async offer(userId: string, viewerKey: string, roomId: string, address: string | undefined, media: boolean) {
    const s = this.stream(roomId);
    if (s.chat.isBanned(userId)) throw new DomainError('forbidden', 'The broadcaster removed you from this stream.', 'banned');
    if (userId === s.info.broadcaster.userId) throw new DomainError('conflict', 'This is your own stream.', 'own_stream');
    this.watches.take({ roomId, viewerKey, userId, address });
    let offer: LiveSdp | null = null;
    try {
      // Watching the chat only takes no peer connection (and so no UDP ports); a key that watched with media before drops its peer.
      if (media) offer = await s.forwarder.addViewer(viewerKey);
      else s.forwarder.removeViewer(viewerKey);
      if (this.live.get(roomId) !== s) throw notFound();
    } catch (err) {
      // The forwarder dropped the key's previous connection too: it no longer watches.
      this.leave(viewerKey, roomId);
      this.watches.release(roomId, viewerKey);
      throw err;
    }
    if (!s.viewers.has(viewerKey)) s.people.set(userId, (s.people.get(userId) ?? 0) + 1);
    s.viewers.set(viewerKey, userId);
    if (!s.watchingSince.has(viewerKey)) s.watchingSince.set(viewerKey, this.now());
    s.everWatched.add(userId);
    s.peakViewers = Math.max(s.peakViewers, s.people.size);
    if (media) this.awaitConnection(s, viewerKey);
    else {
      s.unanswered.get(viewerKey)?.();
      s.unanswered.delete(viewerKey);
    }
    this.dirty.add(roomId);
    this.deps.outbox.viewers(roomId, s.people.size);
    return { offer, viewers: s.people.size };
  }

  /** An offer whose viewer has not connected when the time is up is withdrawn: its ports go back to the range. */
  private awaitConnection(s: Stream, viewerKey: string) {
    s.unanswered.get(viewerKey)?.();
    const cancel = (this.deps.later ?? later)(() => {
      if (s.unanswered.get(viewerKey) !== cancel) return;
      s.unanswered.delete(viewerKey);
      if (this.live.get(s.info.roomId) !== s || s.forwarder.viewerConnected?.(viewerKey)) return;
      this.expiredOffers++;
      this.leave(viewerKey, s.info.roomId);
      this.deps.outbox.expired?.(viewerKey, s.info.roomId);
    }, this.deps.answerTimeoutMs ?? ANSWER_TIMEOUT_MS);
    s.unanswered.set(viewerKey, cancel);
  }

  async answer(viewerKey: string, roomId: string, answer: LiveSdp): Promise<void> {
    const s = this.stream(roomId);
    if (!s.viewers.has(viewerKey)) throw new DomainError('forbidden', 'Start watching before answering.', 'not_watching');
    await s.forwarder.answerViewer(viewerKey, answer);
  }

  leave(viewerKey: string, roomId: string): void {
    const s = this.live.get(roomId);
    const userId = s?.viewers.get(viewerKey);
    if (!s || userId === undefined) return;
    s.viewers.delete(viewerKey);
    const tabs = (s.people.get(userId) ?? 1) - 1;
    if (tabs > 0) s.people.set(userId, tabs);
    else s.people.delete(userId);
    s.unanswered.get(viewerKey)?.();
    s.unanswered.delete(viewerKey);
    this.watches.release(roomId, viewerKey);
    this.sessionEnded(s, viewerKey, userId);
    s.forwarder.removeViewer(viewerKey);
    this.dirty.add(roomId);
    this.deps.outbox.viewers(roomId, s.people.size);
  }

  /**
   * A connection closed: it stops watching everything. A broadcaster's stream ends unless they
   * reconnect within OWNER_GRACE_MS (their media goes on meanwhile: it does not use the socket).
   */
  disconnected(viewerKey: string, userId: string, wasOwnerSocket: (roomId: string) => boolean, graceMs = OWNER_GRACE_MS): void {
    for (const [roomId, s] of this.live) if (s.viewers.has(viewerKey)) this.leave(viewerKey, roomId);
    const own = this.byOwner.get(userId);
    if (own && wasOwnerSocket(own)) this.ownerLeft(userId, own, graceMs);
  }

  /** The broadcaster's connection closed (here or on another process): the stream waits OWNER_GRACE_MS for them. */
  ownerLeft(userId: string, own: string, graceMs = OWNER_GRACE_MS): void {
    if (this.byOwner.get(userId) !== own) return;
    clearTimeout(this.ownerAway.get(own));
    const timer = setTimeout(() => {
      this.ownerAway.delete(own);
      void this.end(userId, own).catch(() => undefined);
    }, graceMs);
    timer.unref?.();
    this.ownerAway.set(own, timer);
  }

  /** The broadcaster connected again: their stream, if it was waiting for them, goes on. */
  ownerReturned(userId: string): string | undefined {
    const own = this.byOwner.get(userId);
    if (!own) return undefined;
    clearTimeout(this.ownerAway.get(own));
    this.ownerAway.delete(own);
    return own;
  }

  /** Timers waiting for a broadcaster to come back; 0 once every stream ended. */
  get pendingTimers(): number {
    return this.ownerAway.size;
  }

  async end(userId: string, roomId: string): Promise<LiveStream> {
    const s = this.owned(userId, roomId);
    clearTimeout(this.ownerAway.get(roomId));
    this.ownerAway.delete(roomId);
    this.live.delete(roomId);
    this.byOwner.delete(userId);
    const endedAt = this.now();
    const view = { ...this.view(s), viewers: 0, endedAt };
    this.ended.set(roomId, view);
    for (const [key, viewer] of s.viewers) {
      this.sessionEnded(s, key, viewer);
      this.watches.release(roomId, key);
    }
    this.forgetWatchers(s);
    if (s.publishedAt !== undefined)
      this.deps.sessionEnded?.({ roomId, userId: s.info.broadcaster.userId, role: 'broadcaster', from: s.publishedAt, to: endedAt });
    this.dirty.delete(roomId);
    void this.directory.end({ ...view, node: this.deps.node ?? 'local' }).catch((err: unknown) => this.deps.onError?.(err));
    await s.forwarder.close();
    // Kept before anyone hears of the end: the broadcaster's page asks for the summary at once.
    await this.deps.streamEnded?.(this.figures(s, endedAt)).catch((err: unknown) => this.deps.onError?.(err));
    this.deps.outbox.ended(roomId, s.info.startedAt, endedAt);
    this.chatLog.drop(roomId);
    this.forgetOldEnded(endedAt);
    return view;
  }

  /**
   * A stream's chat as the room core sees it: the broadcaster owns it, their moderators moderate,
   * anyone watching may write (unless muted or banned); null once the stream ended here.
   */
  chatAccess(roomId: string, userId: string): RoomAccess | null {
    const s = this.live.get(roomId);
    if (!s) return null;
    const inIt = userId === s.info.broadcaster.userId || this.isWatching(s, userId);
    return {
      room: {
        kind: 'live',
        name: s.info.title,
        closed: false,
        readOnly: false,
        slowModeS: s.chat.slowModeS,
        ownerId: s.info.broadcaster.userId,
        lastMessageId: this.chatLog.lastId(roomId),
        visibility: 'public',
        capacity: 0,
        friends: false,
        directMemberIds: null,
        blocked: false,
      },
      member: inIt ? { role: s.chat.roleOf(userId), mutedUntil: s.chat.mutedUntil(userId, this.now()), lastReadId: 0 } : null,
      banned: s.chat.isBanned(userId),
    };
  }

  /** The people a stream's chat lists: its broadcaster and moderators (the viewers are a count). */
  chatPeople(roomId: string, here: string[]): RoomMemberView[] {
    const s = this.live.get(roomId);
    if (!s) return [];
    const present = new Set(here);
    const b = s.info.broadcaster;
    return [
      { userId: b.userId, username: b.username, avatar: b.avatar, role: 'owner' as const, here: present.has(b.userId) },
      ...s.chat.moderatorViews().map((m) => ({ ...m, role: 'moderator' as const, here: present.has(m.userId) })),
    ];
  }

  /** What a report from a stream reads (read-only): who is in it and its recent chat; undefined once it ended. */
  forReport(roomId: string): { present(userId: string): boolean; chat: readonly RoomMessage[] } | undefined {
    const s = this.live.get(roomId);
    if (!s) return undefined;
    return { present: (userId) => userId === s.info.broadcaster.userId || s.people.has(userId), chat: s.chat.history() };
  }

  /**
   * A viewer's gift of gold to the broadcaster: paid through the shop (never below zero, once per
   * key). `live`: the stream still goes on here, so the gift is shown in its chat (by the room core).
   */
  async sendGift(
    user: { userId: string; username: string },
    roomId: string,
    amount: number,
    idempotencyKey: string,
  ): Promise<{ gold: number; live: boolean }> {
    const s = this.stream(roomId);
    if (!this.deps.gift) throw new DomainError('unavailable', 'Gifts are not available on this server.', 'gifts_unavailable');
    if (user.userId === s.info.broadcaster.userId) throw new DomainError('invalid', 'You cannot send a gift to yourself.', 'gift_to_self');
    if (!this.isWatching(s, user.userId)) throw new DomainError('forbidden', 'Watch the stream to send a gift.', 'not_watching');
    if (s.chat.isBanned(user.userId)) throw new DomainError('forbidden', 'The broadcaster removed you from this stream.', 'banned');
    const { gold } = await this.deps.gift(user.userId, { toUserId: s.info.broadcaster.userId, amount, idempotencyKey });
    // Counted once per key: a retry of the same gift is the same gift.
    s.gifts.set(idempotencyKey, amount);
    // The stream may have ended while the gold moved: the gift stands, there is no chat to show it in.
    return { gold, live: this.live.has(roomId) };
  }

  /** The stored room of the stream's broadcaster's channel, where its moderation is kept; undefined when not live here or not stored. */
  channelOf(roomId: string): string | undefined {
    return this.live.get(roomId)?.chat.channelId || undefined;
  }

  /**
   * Moderation stored a change in the stream's channel: the stream follows it. A ban also drops
   * the user's viewing connections (they cannot come back) and answers their removed messages.
   */
  moderated(roomId: string, change: ModerationChange): RoomMessage[] {
    const s = this.live.get(roomId);
    if (!s) return [];
    const removed = s.chat.follow(change);
    if (change.action === 'ban')
      for (const k of this.viewerKeysOf(roomId, change.userId)) {
        this.leave(k, roomId);
        this.deps.outbox.dropped(k, roomId);
      }
    return removed;
  }

  setThumbnail(userId: string, roomId: string, jpeg: Buffer): void {
    const s = this.owned(userId, roomId);
    s.thumbnail = jpeg;
    void this.directory.putThumbnail(roomId, jpeg).catch((err: unknown) => this.deps.onError?.(err));
  }

  thumbnail(roomId: string): Buffer | undefined {
    return this.live.get(roomId)?.thumbnail;
  }

  /** Streams live now, the most watched first. */
  list(filter: { category?: string; q?: string } = {}): LiveStream[] {
    return sortAndFilter(
      [...this.live.values()].filter((s) => s.published).map((s) => this.view(s)),
      filter,
    );
  }

  /** A stream live or ended (with endedAt), or not found. */
  get(roomId: string): LiveStream {
    const s = this.live.get(roomId);
    if (s) return this.view(s);
    const e = this.ended.get(roomId);
    if (e) return e;
    throw notFound();
  }

  /** The stream this user broadcasts now, if any. */
  ownStream(userId: string): string | undefined {
    return this.byOwner.get(userId);
  }

  viewerKeys(roomId: string): string[] {
    return [...(this.live.get(roomId)?.viewers.keys() ?? [])];
  }

  /** The viewer keys (sockets) through which this user watches the stream. */
  viewerKeysOf(roomId: string, userId: string): string[] {
    return [...(this.live.get(roomId)?.viewers ?? [])].filter(([, u]) => u === userId).map(([k]) => k);
  }

  /** Whether this process holds the stream (live, with its media here). */
  holds(roomId: string): boolean {
    return this.live.has(roomId);
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Watches (viewer keys in streams) held here now, answered or not. */
  get watchCount(): number {
    return this.watches.size;
  }

  /**
   * The process drains: a stream's media cannot move to another process, so every stream held here
   * ends now (its viewers and broadcaster are told, its directory entry becomes its ended card)
   * rather than vanishing with the process. The broadcaster can go live again at once, elsewhere.
   */
  async endAll(): Promise<number> {
    const all = [...this.live.values()];
    await Promise.all(all.map((s) => this.end(s.info.broadcaster.userId, s.info.roomId).catch((err: unknown) => this.deps.onError?.(err))));
    return all.length;
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    for (const t of this.ownerAway.values()) clearTimeout(t);
    this.ownerAway.clear();
    for (const [roomId, s] of this.live) {
      for (const key of s.viewers.keys()) this.watches.release(roomId, key);
      this.forgetWatchers(s);
      await s.forwarder.close();
    }
    this.live.clear();
    this.byOwner.clear();
  }

  private isWatching(s: Stream, userId: string): boolean {
    return s.people.has(userId);
  }

  private forgetWatchers(s: Stream) {
    for (const cancel of s.unanswered.values()) cancel();
    s.unanswered.clear();
    s.viewers.clear();
    s.people.clear();
  }

  private stream(roomId: string): Stream {
    const s = this.live.get(roomId);
    if (!s) throw notFound();
    return s;
  }

  private owned(userId: string, roomId: string): Stream {
    const s = this.stream(roomId);
    if (s.info.broadcaster.userId !== userId) throw new DomainError('forbidden', 'Only the broadcaster can do that.', 'not_broadcaster');
    return s;
  }

  private sessionEnded(s: Stream, viewerKey: string, userId: string) {
    const from = s.watchingSince.get(viewerKey);
    s.watchingSince.delete(viewerKey);
    if (from !== undefined) this.deps.sessionEnded?.({ roomId: s.info.roomId, userId, role: 'viewer', from, to: this.now() });
  }

  private figures(s: Stream, endedAt: number): StreamEnded {
    const { roomId, title, category, startedAt, broadcaster } = s.info;
    return {
      roomId,
      title,
      category,
      broadcasterId: broadcaster.userId,
      startedAt,
      endedAt,
      peakViewers: s.peakViewers,
      totalViewers: s.everWatched.size,
      messages: s.messages,
      gifts: s.gifts.size,
      gold: [...s.gifts.values()].reduce((a, b) => a + b, 0),
    };
  }

  /** The held log, counting each stream's new chat lines as they are kept (a resend is not new; a gift's notice is no line). */
  private countedLog(log: ReturnType<typeof memoryLog>): ReturnType<typeof memoryLog> {
    return {
      ...log,
      insert: (m) => {
        const before = log.lastId(m.roomId);
        // The held log gives the id before its first await: whether it was new is known at once.
        const kept = log.insert(m);
        const s = this.live.get(m.roomId);
        if (s && m.gift === undefined && log.lastId(m.roomId) > before) s.messages++;
        return kept;
      },
    };
  }

  private view(s: Stream): LiveStream {
    return { ...s.info, viewers: s.people.size, hasThumbnail: s.thumbnail !== undefined };
  }

  private forgetOldEnded(now: number) {
    for (const [id, e] of this.ended) if (now - (e.endedAt ?? 0) > ENDED_KEPT_MS) this.ended.delete(id);
  }
}
