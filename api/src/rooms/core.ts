import {
  mentionedNames,
  PAGE_DEFAULT,
  PAGE_MAX,
  roomEvents as wire,
  type JoinAnswer,
  type JoinRoom,
  type MutedInRoom,
  type PostAnswer,
  type PostMessage,
  type PicturesAllowed,
  type RemovedFromRoom,
  type RestrictionsChanged,
  type RoomMemberView,
  type RoomMessage,
  type UnreadNotice,
  type OpenThread,
  type ThreadAnswer,
  type ThreadNotice,
  GROUP_ACTIVITY_MS,
} from '@parley/contract/rooms';
import { GROUP_REFUSALS } from '@parley/contract/groups';
import { DIRECT_REFUSALS } from '@parley/contract/direct';
import type { TokenUser } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { sql } from 'drizzle-orm';
import { roomModerationLog } from '../db/schema.ts';
import { DomainError } from '../platform/errors.ts';
import { messageStore, type MessageLog, type NewMessage } from './messageStore.ts';
import { attachmentStore } from './attachments.ts';
import { chatPictureStore } from './chatPictures.ts';
import { ATTACHMENT_ERR, type AttachmentKind, type MessageAttachment } from '@parley/contract/attachments';
import { MEDIA_ERR, type StoredMedia } from '@parley/contract/media';
import { accessCache } from './accessCache.ts';
import { batcher } from '../platform/batcher.ts';
import { membership, type Access } from './membership.ts';
import type { RoomKind } from '@parley/contract/rooms';
import { storedRoomEvents } from './events.ts';
import { roomPresence } from './roomPresence.ts';
import { moderatable, type ModerationPolicy } from './moderation.ts';
import { messageDelivered } from '../platform/metrics.ts';
import { threadStore } from './threads.ts';
import { isUuid } from '../db/accounts.ts';

/** How stored rooms reach sockets; socket.io in storedSocket.ts, nothing of it here. */
export type StoredRoomFanout = {
  /** The socket follows the room live (it is a member; checked before). */
  watch(socketId: string, roomId: string): void;
  unwatch(socketId: string, roomId: string): void;
  /** To every socket following the room, but `exceptSocket` and the sockets of `exceptUsers`. */
  toRoom(roomId: string, event: string, payload: unknown, exceptSocket?: string, exceptUsers?: readonly string[]): void;
  /** To every socket of these users, wherever they are. */
  toUsers(userIds: string[], event: string, payload: unknown): void;
  /** Every socket of the user stops following the room. */
  unwatchUser(userId: string, roomId: string): void;
  /** Every socket stops following the room (it is gone). */
  unwatchAll(roomId: string): void;
};

/** The room and the caller's place in it, whichever kind: read from the database or from memory. */
export type RoomAccess = Omit<Access, 'room'> & { room: Omit<Access['room'], 'kind'> & { kind: RoomKind } };

/**
 * A kind of room whose rooms are not stored rooms (a live stream's chat): where its rooms' access
 * comes from and where their messages are kept. Stored kinds (group, direct) are the default policy.
 */
export type RoomPolicy = {
  kind: RoomKind;
  /** Whether this process holds the room (a stream held here); the core asks the policies in turn. */
  holds(roomId: string): boolean;
  /**
   * The room and the caller's place in it; null when the room is not (or no longer) there.
   * `socketId`, when the caller is a page: a kind whose members are pages (a 1:1 chat) admits only theirs.
   */
  access(roomId: string, userId: string, socketId?: string): RoomAccess | null;
  /** Its messages, held in memory (the core's held log): the last id it gave a room tells a new message from a resend. */
  log: MessageLog & { lastId(roomId: string): number };
  /** The room's people as its page lists them (a stream: its broadcaster and moderators). */
  people(roomId: string, here: string[]): Promise<RoomMemberView[]>;
  /** What someone who may not read the room is told (not watching, banned), in the kind's words. */
  refusals: { notMember: { message: string; code: string }; banned: { message: string; code: string } };
  /** What a report from a room that is gone is told (a stream that ended took its chat with it). */
  gone: { message: string; code: string };
  /** What a caller of a room it holds no more (access null) is told; the core's "no such room" otherwise. */
  unknown?: { message: string; code: string };
  /**
   * The kind's own allowance and checks for a new post (a 1:1 chat: per person over all their
   * chats, and links copied to stranger after stranger), in place of the core's per-room allowance:
   * throws a DomainError to refuse.
   */
  admitPost?(userId: string, roomId: string, text: string): void;
  /** A new message was kept (a 1:1 chat counts who spoke). */
  posted?(m: RoomMessage): void;
  /**
   * The log's insert without a promise, for a kind whose posts need nothing awaited (a 1:1 chat's
   * words): RoomCore.postNow keeps them at once. Its own checks throw as insert's reject.
   */
  insertNow?(m: NewMessage): RoomMessage | null;
  /** Read positions held with the room (a 1:1 chat's "seen"), shown to the other members. */
  reads?: {
    /** Moves `userId`'s position forward to `lastReadId` (never past the last message); the new one, or null when it did not move. */
    mark(roomId: string, userId: string, lastReadId: number): number | null;
    positions(roomId: string): Record<string, number>;
  };
  /**
   * Messages stay as they were sent: no edits and no reactions (a stream's chat, whose page offers
   * neither: an edit would let someone rewrite what a report reads, a reaction reach every viewer).
   */
  fixed?: boolean;
  /** How its rooms are moderated (rooms/moderation.ts); without it, they are not. */
  moderation?: ModerationPolicy;
  /**
   * Pictures, only while every member allows them in the room (a 1:1 chat with a stranger, where
   * each side says so for that chat alone); without it, the kind takes none.
   */
  pictures?: {
    allowedBy(roomId: string): string[];
    /** Every member allows them now. */
    agreed(roomId: string): boolean;
    /** `userId` allows them (or no longer); who allows them now. */
    allow(roomId: string, userId: string, on: boolean): string[];
  };
};

export type RoomCoreDeps = {
  db: Db;
  fanout: StoredRoomFanout;
  /**
   * Under sustained posting, how long a batch of posts may wait to gather more (platform/batcher's
   * busyGather): for a database that shares this process's core, where each statement's fixed cost
   * is taken from the sockets.
   */
  postsGather?: { ms: number; items: number } | undefined;
  /** Kinds held in memory by their areas (live), beside the stored kinds read from the database. */
  policies?: RoomPolicy[];
  /** Per user and room: false past the message allowance. */
  allowPost(key: string): boolean;
  /** The custom emoji shortcodes in a text that its writer owns (the shop's check, as in 1:1 chats). */
  verifiedEmoji?(userId: string, text: string): string[] | undefined;
  /** The sticker or GIF a post names, as this sender may send it; throws a refusal otherwise (stickers/area.ts). */
  media?(userId: string, m: { sticker?: string | undefined; gif?: string | undefined }): Promise<StoredMedia>;
  /** The users a user blocked or was blocked by (safety): a group message never reaches them live. */
  blocksOf?(userId: string): Promise<ReadonlySet<string>>;
  /** Where its events go, when their followers subscribed before the core was made (server.ts). */
  events?: ReturnType<typeof storedRoomEvents>;
  now?: () => number;
  /** How long a 1:1 chat's pictures outlive it (CHAT_PICTURES_GRACE_MS). */
  chatPicturesGraceMs?: number;
  /** Other servers of a cluster: changes of access made here reach their caches, and theirs this one's. */
  accessBus?: {
    publish(change: AccessChange): void;
    subscribe(forget: (change: AccessChange) => void): void;
  };
};

/** What changed who may post: one member of a room, everyone in a room, or these users in every room. */
export type AccessChange = { roomId: string; userId?: string | undefined } | { userIds: readonly string[] };

/** How many people a room's list shows at most (the busiest rooms have hundreds here at once). */
export const PEOPLE_SHOWN = 200;
/** A first visit opens with this many messages before the first unread one, for context. */
const CONTEXT_BEFORE_UNREAD = 20;
const PREVIEW_CHARS = 140;
/** How long a member's access read for posting is trusted (changes made in this process forget it at once). */
export const ACCESS_TTL_MS = 30_000;
/** Cached access due to be read again waits this long for others, to be read in one query. */
const REFRESH_GATHER_MS = 250;
/** A batch of posts written in one statement: at most this many, and about this much text. */
const POST_BATCH_MAX = 512;
const POST_BATCH_CHARS = 1 << 20;

const STORED_REFUSALS: RoomPolicy['refusals'] = {
  notMember: { message: GROUP_REFUSALS.notMember, code: 'not_member' },
  banned: { message: GROUP_REFUSALS.banned, code: 'banned' },
};

const rowsOf = (r: unknown) => (r as { rows: Array<Record<string, unknown>> }).rows;

const refusal = (failure: DomainError['failure'], message: string, code: string, retryAfterS?: number) =>
  new DomainError(failure, message, code, retryAfterS);

const GONE = 'That message is gone.';
const NO_THREADS = 'Threads are only in group rooms.';

/** What a notice shows of a message: its words, or what it carries. */
const previewOf = (m: RoomMessage) =>
  (
    m.text ||
    (m.attachment?.kind === 'voice'
      ? '🎤 Voice message'
      : m.attachment
        ? '📷 Picture'
        : m.media?.kind === 'sticker'
          ? '🏷️ Sticker'
          : m.media
            ? '🎞️ GIF'
            : '')
  ).slice(0, PREVIEW_CHARS);

/**
 * The stored-room core shared by group rooms and direct messages: who may read and write, posting
 * with an id per room, paging and catch-up, edits, deletions, reactions, typing, read positions,
 * and who has the room open. Group and direct areas decide who becomes a member; this decides
 * what a member may do.
 */
export class RoomCore {
  readonly events: ReturnType<typeof storedRoomEvents>;
  /** The stored kinds' log; a policy's kind has its own (logOf). */
  readonly messages: ReturnType<typeof messageStore>;
  readonly members: ReturnType<typeof membership>;
  /** Stored rooms' pictures and voice messages. */
  readonly attachments: ReturnType<typeof attachmentStore>;
  /** The pictures of 1:1 chats whose members both allow them. */
  readonly chatPictures: ReturnType<typeof chatPictureStore>;
  /** Who follows group rooms' threads and how far they read them. */
  readonly threads: ReturnType<typeof threadStore>;
  readonly presence = roomPresence();
  /** Rooms' kinds as this process has read them (a room's kind never changes): how the fan-out routes them. */
  private readonly kinds = new Map<string, RoomKind>();
  private readonly policies: RoomPolicy[];
  /** Each room's posters' last post times (slow mode), forgotten with the room. */
  private readonly lastPost = new Map<string, Map<string, number>>();
  /** Posting's access checks, cached (post path; see accessCache.ts for what forgets them). */
  private readonly postAccess = accessCache({ ttlMs: ACCESS_TTL_MS, max: 200_000, now: () => this.now() });
  /**
   * Posts of all rooms stored in batches, one statement each, one batch at a time: ids per room
   * follow the order posts arrive in, and each stored message is sent to its room as its batch
   * answers, in that order, so live order is id order.
   */
  private readonly postWrites: ReturnType<typeof batcher<NewMessage, { message: RoomMessage | null; fresh: boolean }>>;
  /** Posting's access reads that the cache did not answer, many in one query (a server starting, or a crowd arriving). */
  private readonly accessReads: ReturnType<typeof batcher<{ roomId: string; userId: string }, Access | null>>;
  /** Cached access read again before it expires, what comes due within REFRESH_GATHER_MS in one query. */
  private readonly refreshReads: ReturnType<typeof batcher<{ roomId: string; userId: string }, Access | null>>;
  private readonly peopleTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Group rooms told of lately, each with the notice to tell at the end of its window (a newer message's). */
  private readonly groupActivity = new Map<string, { timer: ReturnType<typeof setTimeout>; next: UnreadNotice | undefined }>();
  private readonly now: () => number;

  constructor(private readonly deps: RoomCoreDeps) {
    this.messages = messageStore(deps.db);
    this.members = membership(deps.db);
    this.attachments = attachmentStore(deps.db);
    this.chatPictures = chatPictureStore(deps.db, { graceMs: deps.chatPicturesGraceMs });
    this.threads = threadStore(deps.db);
    this.now = deps.now ?? Date.now;
    this.policies = deps.policies ?? [];
    this.events = deps.events ?? storedRoomEvents();
    this.accessReads = batcher((pairs: Array<{ roomId: string; userId: string }>) => this.members.accessMany(pairs), { maxItems: 1000 });
    this.refreshReads = batcher((pairs: Array<{ roomId: string; userId: string }>) => this.members.accessMany(pairs), {
      maxItems: 1000,
      gatherMs: REFRESH_GATHER_MS,
    });
    this.postWrites = batcher((ms: NewMessage[]) => this.messages.insertMany(ms), {
      maxItems: POST_BATCH_MAX,
      weight: (m) => m.text.length,
      maxWeight: POST_BATCH_CHARS,
      busyGather: deps.postsGather,
    });
    deps.accessBus?.subscribe((change) => this.forgetAccess(change));
  }

  /** Readies the message store's connections before the first posts (see messageStore.warm). */
  warm(): Promise<void> {
    return this.messages.warm();
  }

  kindOf(roomId: string): RoomKind | undefined {
    return this.kinds.get(roomId);
  }

  /** The policy of the kind holding the room in memory (a stream's chat), or undefined for a stored room. */
  policyOf(roomId: string): RoomPolicy | undefined {
    for (const p of this.policies) if (p.holds(roomId)) return p;
    return undefined;
  }

  /** The room and someone's place in it, without refusing (a report's checks); null when there is no such room. */
  async accessOf(roomId: string, userId: string): Promise<RoomAccess | null> {
    const policy = this.policyOf(roomId);
    return policy ? policy.access(roomId, userId) : this.members.access(roomId, userId);
  }

  /** The kind's words for a room that is gone, when a policy holds such rooms. */
  goneFor(kind: RoomKind): { message: string; code: string } | undefined {
    return this.policies.find((p) => p.kind === kind)?.gone;
  }

  /** The room's messages are held in memory (not stored): they last as long as the room. */
  isHeld(roomId: string): boolean {
    return this.policyOf(roomId) !== undefined;
  }

  /** Where the room's messages are: its policy's log, or the database for stored kinds. */
  logOf(roomId: string): MessageLog {
    return this.policyOf(roomId)?.log ?? this.messages;
  }

  /** Throws unless `userId` may read the room: it exists, and they are a member and not banned. */
  async readable(roomId: string, userId: string, socketId?: string): Promise<RoomAccess & { member: NonNullable<Access['member']> }> {
    const policy = this.policyOf(roomId);
    if (policy) return this.checked(roomId, policy.access(roomId, userId, socketId), policy);
    const generation = this.postAccess.generation;
    const read = await this.members.access(roomId, userId);
    const access = this.checked(roomId, read);
    // A page opening its room is about to post there: its first message needs no read of its own.
    if (read) this.postAccess.set(roomId, userId, read, generation);
    return access;
  }

  /** The refusals of readable(), of access read one way or another, in the words of the room's kind. */
  private checked(roomId: string, access: RoomAccess | null, policy?: RoomPolicy): RoomAccess & { member: NonNullable<Access['member']> } {
    if (!access) {
      const unknown = policy?.unknown;
      throw unknown ? refusal('not_found', unknown.message, unknown.code) : refusal('not_found', GROUP_REFUSALS.unknown, 'unknown_room');
    }
    this.kinds.set(roomId, access.room.kind);
    const refusals = policy?.refusals ?? STORED_REFUSALS;
    if (access.banned) throw refusal('forbidden', refusals.banned.message, refusals.banned.code);
    if (!access.member) throw refusal('forbidden', refusals.notMember.message, refusals.notMember.code);
    if (access.room.kind === 'direct' && access.room.blocked) throw refusal('forbidden', DIRECT_REFUSALS.blocked, 'blocked');
    if (access.room.kind === 'direct' && !access.room.friends) throw refusal('forbidden', DIRECT_REFUSALS.notFriends, 'not_friends');
    return access as RoomAccess & { member: NonNullable<Access['member']> };
  }

  /** readable() for posting, from the cache while it holds (access that refused is read every time); a held kind's is in memory already. */
  private async postable(roomId: string, userId: string, socketId?: string) {
    const policy = this.policyOf(roomId);
    if (policy) return this.checked(roomId, policy.access(roomId, userId, socketId), policy);
    const cached = this.postAccess.get(roomId, userId);
    if (cached) {
      if (cached.refresh) this.refreshAccess(roomId, userId);
      return cached.access as RoomAccess & { member: NonNullable<Access['member']> };
    }
    const generation = this.postAccess.generation;
    const read = await this.accessReads.add({ roomId, userId });
    const access = this.checked(roomId, read);
    // What the database answered is a stored room's access (only it is cached).
    if (read) this.postAccess.set(roomId, userId, read, generation);
    return access;
  }

  /** Reads a cached access again in the background: kept while it still lets the member post, else forgotten. */
  private refreshAccess(roomId: string, userId: string) {
    const generation = this.postAccess.generation;
    this.refreshReads.add({ roomId, userId }).then(
      (read) => {
        try {
          this.checked(roomId, read);
          if (read) this.postAccess.set(roomId, userId, read, generation);
        } catch {
          this.postAccess.drop(roomId, userId);
        }
      },
      // The read failed: the entry still expires at its time, and its next post reads it.
      () => undefined,
    );
  }

  /**
   * Who may post changed (a role, a room's settings, a friendship, a mute, a removal): posting
   * reads it again, here and on the other servers of a cluster.
   */
  accessChanged(change: AccessChange) {
    this.forgetAccess(change);
    this.deps.accessBus?.publish(change);
  }

  private forgetAccess(change: AccessChange) {
    if ('userIds' in change) this.postAccess.forgetUsers(change.userIds);
    else this.postAccess.forgetRoom(change.roomId, change.userId);
  }

  async page(
    roomId: string,
    userId: string,
    q: { before?: number | undefined; after?: number | undefined; around?: number | undefined; thread?: number | undefined; limit: number },
  ): Promise<{ messages: RoomMessage[]; hasMore: boolean; hasNewer?: boolean }> {
    const { room } = await this.readable(roomId, userId);
    const log = this.logOf(roomId);
    if (q.thread !== undefined) {
      this.refuseUnlessThreads(roomId, room.kind);
      return q.after !== undefined
        ? this.messages.after(roomId, q.after, q.limit, q.thread)
        : this.messages.before(roomId, q.before, q.limit, q.thread);
    }
    if (q.around !== undefined) {
      // The message and as many before it as after it (a search's hit, shown in its conversation).
      const older = await log.before(roomId, q.around + 1, Math.ceil(q.limit / 2));
      const newer = await log.after(roomId, q.around, Math.floor(q.limit / 2));
      return { messages: [...older.messages, ...newer.messages], hasMore: older.hasMore, hasNewer: newer.hasMore };
    }
    return q.after !== undefined ? log.after(roomId, q.after, q.limit) : log.before(roomId, q.before, q.limit);
  }

  /**
   * A page opens the room: it follows it live from now on, then gets what it missed. Following
   * first means a message stored meanwhile comes both ways, and ids make it one; none falls between.
   */
  async join(socketId: string, user: TokenUser, { roomId, after }: JoinRoom): Promise<JoinAnswer> {
    const access = await this.readable(roomId, user.userId, socketId);
    if (access.room.closed) throw refusal('forbidden', GROUP_REFUSALS.closed, 'closed');
    this.deps.fanout.watch(socketId, roomId);
    if (this.presence.enter(roomId, user.userId, socketId)) this.peopleChanged(roomId);
    const log = this.logOf(roomId);
    const pictures = this.policyOf(roomId)?.pictures;
    let page: { messages: RoomMessage[]; hasMore: boolean };
    let hasOlder: boolean;
    let hasNewer = false;
    if (after !== undefined) {
      page = await log.after(roomId, after, PAGE_MAX);
      hasNewer = page.hasMore;
      hasOlder = after > 0;
    } else {
      const unread = access.room.lastMessageId - access.member.lastReadId;
      if (unread + CONTEXT_BEFORE_UNREAD > PAGE_MAX) {
        // More unread than a page holds: the page starts just before the first unread, so the
        // reader opens there (not at the latest) and the rest follows page by page with `after`.
        const from = Math.max(0, access.member.lastReadId - CONTEXT_BEFORE_UNREAD);
        page = await log.after(roomId, from, PAGE_MAX);
        hasNewer = page.hasMore;
        hasOlder = from > 0;
      } else {
        page = await log.before(roomId, undefined, Math.max(PAGE_DEFAULT, unread + CONTEXT_BEFORE_UNREAD));
        hasOlder = page.hasMore;
      }
    }
    return {
      ok: true,
      messages: page.messages,
      hasOlder,
      hasNewer,
      lastReadId: access.member.lastReadId,
      readBy: await this.readPositions(roomId, access.room.kind, user.userId),
      people: await this.people(roomId),
      mutedUntil: access.member.mutedUntil,
      ...(pictures && { picturesAllowedBy: pictures.allowedBy(roomId) }),
      ...(access.room.kind === 'group' &&
        !this.policyOf(roomId) && {
          threadUnread: await this.threads.unread(roomId, user.userId),
          // Threads that moved on while the page was away: their roots' summaries as they are now.
          ...(after !== undefined && after > 0 && { threads: await this.messages.threadsMovedAfter(roomId, after, PAGE_MAX) }),
        }),
    };
  }

  /** Threads are a stored group room's: any other kind refuses them. */
  private refuseUnlessThreads(roomId: string, kind: RoomKind) {
    if (kind !== 'group' || this.policyOf(roomId)) throw refusal('forbidden', NO_THREADS, 'not_allowed');
  }

  /**
   * A page opens a thread: its root and replies (the latest, or those after `after` when catching
   * up), the reader's place in it; its live replies come with the room's messages, so the page
   * follows the room too.
   */
  async openThread(socketId: string, user: TokenUser, { roomId, rootId, after }: OpenThread): Promise<ThreadAnswer> {
    const access = await this.readable(roomId, user.userId, socketId);
    this.refuseUnlessThreads(roomId, access.room.kind);
    if (access.room.closed) throw refusal('forbidden', GROUP_REFUSALS.closed, 'closed');
    const root = await this.messages.one(roomId, rootId);
    if (!root || root.threadId !== undefined) throw refusal('not_found', GONE, 'unknown_message');
    this.deps.fanout.watch(socketId, roomId);
    const place = await this.threads.place(roomId, rootId, user.userId);
    let page: { messages: RoomMessage[]; hasMore: boolean };
    let hasOlder: boolean;
    let hasNewer = false;
    if (after !== undefined) {
      page = await this.messages.after(roomId, after, PAGE_MAX, rootId);
      hasNewer = page.hasMore;
      hasOlder = after > rootId;
    } else {
      page = await this.messages.before(roomId, undefined, PAGE_MAX, rootId);
      hasOlder = page.hasMore;
    }
    return { ok: true, root, messages: page.messages, hasOlder, hasNewer, following: place.following, lastReadId: place.lastReadId };
  }

  /** How far a member has read a thread (its unread count). */
  async threadRead(user: TokenUser, roomId: string, rootId: number, lastReadId: number, socketId?: string) {
    const { room } = await this.readable(roomId, user.userId, socketId);
    this.refuseUnlessThreads(roomId, room.kind);
    await this.threads.markRead(roomId, rootId, user.userId, lastReadId);
  }

  /** A member follows a thread (told of its replies) or stops. */
  async follow(user: TokenUser, roomId: string, rootId: number, on: boolean, socketId?: string) {
    const { room } = await this.readable(roomId, user.userId, socketId);
    this.refuseUnlessThreads(roomId, room.kind);
    const root = await this.threads.root(roomId, rootId);
    if (!root || root.reply) throw refusal('not_found', GONE, 'unknown_message');
    await this.threads.follow(roomId, rootId, user.userId, on);
  }

  /** The thread a new reply goes to: a message of the group room itself that is still there. */
  private async threadRootFor(roomId: string, kind: RoomKind, rootId: number) {
    this.refuseUnlessThreads(roomId, kind);
    const root = await this.threads.root(roomId, rootId);
    if (!root || root.deleted) throw refusal('not_found', GONE, 'unknown_message');
    if (root.reply) throw refusal('invalid', 'Reply in the thread itself: a reply has no thread of its own.', 'thread_reply');
    return root;
  }

  /**
   * A reply was stored in a thread: its poster follows the thread, the room sees the root's new
   * summary, and the thread's other followers (but those either side blocked) are told.
   */
  private async threadPosted(
    room: RoomAccess['room'],
    m: RoomMessage,
    user: TokenUser,
    rootAuthorId: string | null,
    hiddenFrom: readonly string[],
  ) {
    const rootId = m.threadId!;
    await this.threads.posted(m.roomId, rootId, user.userId, m.id, rootAuthorId);
    const root = await this.messages.one(m.roomId, rootId);
    if (root) this.deps.fanout.toRoom(m.roomId, wire.changed, root);
    const hidden = new Set(hiddenFrom);
    const followers = (await this.threads.followers(m.roomId, rootId)).filter((id) => id !== user.userId && !hidden.has(id));
    if (followers.length === 0) return;
    this.deps.fanout.toUsers(followers, wire.threadActivity, {
      roomId: m.roomId,
      rootId,
      messageId: m.id,
      senderId: user.userId,
    } satisfies ThreadNotice);
    const preview = previewOf(m);
    for (const followerId of followers)
      this.events.emit('threadReply', {
        followerId,
        roomId: m.roomId,
        roomName: room.name,
        rootId,
        messageId: m.id,
        senderId: user.userId,
        senderName: user.username,
        preview,
      });
  }

  unwatch(socketId: string, roomId: string, userId: string) {
    this.deps.fanout.unwatch(socketId, roomId);
    if (this.presence.leave(roomId, userId, socketId)) this.peopleChanged(roomId);
  }

  disconnect(socketId: string, userId: string) {
    for (const roomId of this.presence.leaveAll(userId, socketId)) this.peopleChanged(roomId);
  }

  /**
   * The members' read positions where the kind shows them (direct rooms, 1:1 chats), as `viewerId`
   * may see them: none of those who hide their receipts, and none at all when the viewer hides theirs.
   */
  private async readPositions(roomId: string, kind: RoomKind, viewerId: string): Promise<Record<string, number>> {
    const reads = this.policyOf(roomId)?.reads;
    const all = reads ? reads.positions(roomId) : kind === 'direct' ? await this.members.readPositions(roomId) : {};
    const others = Object.keys(all).filter((id) => id !== viewerId);
    if (others.length === 0) return all;
    const hiding = await this.hidingReceipts([viewerId, ...others]);
    if (hiding.has(viewerId)) return {};
    return Object.fromEntries(Object.entries(all).filter(([id]) => !hiding.has(id)));
  }

  /** Those of `userIds` whose settings hide their read receipts (read each time: a change holds at once, on every server). */
  private async hidingReceipts(userIds: readonly string[]): Promise<Set<string>> {
    const ids = [...new Set(userIds.filter(isUuid))];
    if (ids.length === 0) return new Set();
    const rows = rowsOf(
      await this.deps.db.execute(
        sql`select id from users where id = any(${`{${ids.join(',')}}`}::uuid[]) and coalesce((settings -> 'privacy' ->> 'hideReadReceipts')::boolean, false)`,
      ),
    );
    return new Set(rows.map((r) => r.id as string));
  }

  /** A read position reaches the room's open pages, unless its reader hides receipts; never the pages of those who hide theirs. */
  private async tellRead(roomId: string, userId: string, lastReadId: number, members: readonly string[]) {
    const others = [...new Set([...members, ...this.presence.usersIn(roomId)])].filter((id) => id !== userId);
    const hiding = await this.hidingReceipts([userId, ...others]);
    if (hiding.has(userId)) return;
    this.deps.fanout.toRoom(roomId, wire.read, { roomId, userId, lastReadId }, undefined, [...hiding]);
  }

  /**
   * Throws unless `userId` may upload this kind of attachment to the room now: a stored room (a
   * group room, a direct conversation) they may write in; or a picture to a 1:1 chat of theirs
   * whose members both allow pictures now. Never a stream's chat. Any page of theirs uploads: each
   * is the same person.
   */
  async uploadable(roomId: string, userId: string, kind: AttachmentKind): Promise<void> {
    const policy = this.policyOf(roomId);
    if (policy) {
      if (!policy.pictures || kind !== 'image') throw refusal('forbidden', ATTACHMENT_ERR.notHere, 'not_allowed');
      await this.writable(roomId, userId);
      if (!policy.pictures.agreed(roomId)) throw refusal('forbidden', ATTACHMENT_ERR.picturesNotAllowed, 'pictures_not_allowed');
      return;
    }
    const { room } = await this.writable(roomId, userId);
    if (room.kind !== 'group' && room.kind !== 'direct') throw refusal('forbidden', ATTACHMENT_ERR.notHere, 'not_allowed');
  }

  /** Where the room's pictures are kept: a 1:1 chat's own store, or the stored rooms'. */
  picturesOf(roomId: string): Pick<ReturnType<typeof attachmentStore>, 'readable' | 'usage'> {
    return this.policyOf(roomId)?.pictures ? this.chatPictures : this.attachments;
  }

  /** A member of a 1:1 chat allows pictures in it, or no longer: both pages of the chat hear who allows them now. */
  async allowPictures(user: TokenUser, roomId: string, on: boolean, socketId?: string): Promise<void> {
    await this.readable(roomId, user.userId, socketId);
    const pictures = this.policyOf(roomId)?.pictures;
    if (!pictures) throw refusal('forbidden', ATTACHMENT_ERR.notHere, 'not_allowed');
    const allowedBy = pictures.allow(roomId, user.userId, on);
    this.deps.fanout.toRoom(roomId, wire.picturesAllowed, { roomId, allowedBy } satisfies PicturesAllowed);
  }

  /**
   * The upload becomes this message's (or was already, when this is a resend of it): the sender's,
   * of this room, from the store of the room's kind (a direct message's upload never names a 1:1
   * chat's picture, nor the other way round).
   */
  private async claimFor(p: PostMessage & { attachment: string }, userId: string): Promise<MessageAttachment> {
    const store = this.policyOf(p.roomId)?.pictures ? this.chatPictures : this.attachments;
    const claimed = await store.claim(p.attachment, p.roomId, userId, p.clientId);
    if (!claimed) throw refusal('invalid', ATTACHMENT_ERR.notYours, 'unknown_attachment');
    return claimed;
  }

  /**
   * post() for a room whose kind keeps its messages in memory and needs nothing awaited (a 1:1
   * chat's words, without a picture): the same checks in the same order, and the message kept and
   * sent before this returns. Every message of every chat comes here, and each layer of promises
   * cost about a kilobyte a post. Undefined when the post needs post() (another kind, a picture).
   */
  postNow(user: TokenUser, p: PostMessage, socketId?: string): PostAnswer | undefined {
    const policy = this.policyOf(p.roomId);
    // Mentions (groups) and hiding from blocked people (groups, live) are read from the database.
    if (!policy?.insertNow || policy.kind === 'group' || policy.kind === 'live') return undefined;
    if (p.attachment !== undefined || p.sticker !== undefined || p.gif !== undefined || p.threadId !== undefined) return undefined;
    const arrived = performance.now();
    const { room, member } = this.checked(p.roomId, policy.access(p.roomId, user.userId, socketId), policy);
    this.admitted(room, member);
    this.rated(user, p, room, member, policy);
    // As keep(): an id past the last one given is a new message, any other a resend's earlier copy.
    const before = policy.log.lastId(p.roomId);
    const message = policy.insertNow(this.newMessage(user, p, [], undefined, undefined));
    return this.postKept(room, user, p, { message, fresh: message !== null && message.id > before }, null, [], arrived);
  }

  async post(user: TokenUser, p: PostMessage, socketId?: string): Promise<PostAnswer> {
    const arrived = performance.now();
    const access = await this.postable(p.roomId, user.userId, socketId);
    const { room, member } = access;
    // A 1:1 chat takes a picture only while both its members allow them (checked as it is sent: either may have stopped since the upload).
    const pictures = this.policyOf(p.roomId)?.pictures;
    if (p.attachment !== undefined && pictures && !pictures.agreed(p.roomId))
      throw refusal('forbidden', ATTACHMENT_ERR.picturesNotAllowed, 'pictures_not_allowed');
    if (p.attachment !== undefined && !pictures && (this.policyOf(p.roomId) || (room.kind !== 'group' && room.kind !== 'direct')))
      throw refusal('forbidden', ATTACHMENT_ERR.notHere, 'not_allowed');
    const wantsMedia = p.sticker !== undefined || p.gif !== undefined;
    if (wantsMedia && (this.policyOf(p.roomId) || (room.kind !== 'group' && room.kind !== 'direct') || !this.deps.media))
      throw refusal('forbidden', MEDIA_ERR.notHere, 'not_allowed');
    this.admitted(room, member);
    const root = p.threadId === undefined ? null : await this.threadRootFor(p.roomId, room.kind, p.threadId);
    const policy = this.policyOf(p.roomId);
    this.rated(user, p, room, member, policy);
    // The upload becomes this message's (or was already, when this is a resend of it).
    const attachment = p.attachment !== undefined ? await this.claimFor({ ...p, attachment: p.attachment }, user.userId) : undefined;
    // Checked after the allowance is taken: guessing ids costs posts like any message.
    const media = wantsMedia ? await this.deps.media!(user.userId, { sticker: p.sticker, gif: p.gif }) : undefined;

    const mentions =
      room.kind === 'group' ? (await this.members.membersNamed(p.roomId, mentionedNames(p.text))).filter((id) => id !== user.userId) : [];
    // Their pages hide the sender's messages too (history, and a hosted fan-out that cannot leave anyone out).
    const hiddenFrom =
      (room.kind === 'group' || room.kind === 'live') && this.deps.blocksOf ? [...(await this.deps.blocksOf(user.userId))] : [];
    // Stored with the posts of the same moment (or held in memory); sent to the room as it is kept, in id order.
    const kept = await this.keep(
      this.newMessage(user, p, mentions, attachment, media),
      // A resend (its acknowledgement lost) is answered with the copy stored before, which was sent then.
      (r) => {
        if (r.fresh && r.message) this.deps.fanout.toRoom(p.roomId, wire.message, r.message, undefined, hiddenFrom);
        if (r.fresh && r.message) messageDelivered(room.kind, arrived);
      },
    );
    return this.postKept(room, user, p, kept, root, hiddenFrom);
  }

  /** A post's first checks once its room's access is known: the room closed, the sender muted, read-only. */
  private admitted(room: RoomAccess['room'], member: NonNullable<Access['member']>) {
    if (room.closed) throw refusal('forbidden', GROUP_REFUSALS.closed, 'closed');
    const t = this.now();
    if (member.mutedUntil !== null && member.mutedUntil > t)
      throw refusal('forbidden', GROUP_REFUSALS.muted, 'muted', Math.ceil((member.mutedUntil - t) / 1000));
    if (room.readOnly && member.role === 'member') throw refusal('forbidden', GROUP_REFUSALS.readOnly, 'read_only');
  }

  /** A post's last checks, which count it: slow mode, then the allowance (the kind's own, or the core's per room). */
  private rated(
    user: TokenUser,
    p: PostMessage,
    room: RoomAccess['room'],
    member: NonNullable<Access['member']>,
    policy: RoomPolicy | undefined,
  ) {
    const moderator = member.role !== 'member';
    const t = this.now();
    const last = this.lastPost.get(p.roomId)?.get(user.userId);
    if (room.slowModeS > 0 && !moderator && last !== undefined && t - last < room.slowModeS * 1000)
      throw refusal('too_many', GROUP_REFUSALS.slowMode, 'slow_mode', Math.ceil((room.slowModeS * 1000 - (t - last)) / 1000));
    if (policy?.admitPost) policy.admitPost(user.userId, p.roomId, p.text);
    else if (!this.deps.allowPost(`${p.roomId}:${user.userId}`))
      throw refusal('too_many', 'You are sending messages too fast. Slow down a little.', 'rate_limited', 1);
    // Kept with slow mode off too (turned on in a flood, it holds back who just posted), wherever
    // slow mode can be turned on.
    if (!moderatable(room.kind, policy)) return;
    let times = this.lastPost.get(p.roomId);
    if (!times) this.lastPost.set(p.roomId, (times = new Map()));
    times.set(user.userId, t);
  }

  private newMessage(
    user: TokenUser,
    p: PostMessage,
    mentions: string[],
    attachment: MessageAttachment | undefined,
    media: NewMessage['media'],
  ): NewMessage {
    return {
      roomId: p.roomId,
      senderId: user.userId,
      senderName: user.username,
      text: p.text,
      clientId: p.clientId,
      replyTo: p.replyTo,
      mentions,
      emoji: this.deps.verifiedEmoji?.(user.userId, p.text),
      attachmentId: p.attachment,
      attachment,
      media,
      threadId: p.threadId,
    };
  }

  /** What follows a post's keeping, whichever way it was kept: the answer, and for a new message its news. */
  private postKept(
    room: RoomAccess['room'],
    user: TokenUser,
    p: PostMessage,
    { message: stored, fresh }: { message: RoomMessage | null; fresh: boolean },
    root: { senderId: string | null } | null,
    hiddenFrom: string[],
    arrived?: number,
  ): PostAnswer {
    if (!stored) {
      this.forgetAccess({ roomId: p.roomId });
      throw refusal('not_found', GROUP_REFUSALS.unknown, 'unknown_room');
    }
    if (fresh) {
      // Kept at once (postNow): sent here, as keep() sends what it keeps.
      if (arrived !== undefined) {
        this.deps.fanout.toRoom(p.roomId, wire.message, stored, undefined, hiddenFrom);
        messageDelivered(room.kind, arrived);
      }
      this.policyOf(p.roomId)?.posted?.(stored);
      this.announce(room, stored, user);
      if (root) void this.threadPosted(room, stored, user, root.senderId, hiddenFrom).catch(() => undefined);
      if (room.kind === 'group' && p.replyTo !== undefined) void this.answered(p.roomId, p.replyTo, user.userId).catch(() => undefined);
    }
    return { ok: true, message: stored };
  }

  /**
   * A notice shown in a held room in someone's name without their writing it (a gift in a stream's
   * chat): kept in the room's log as a post is (an id, catch-up, once per `clientId`) and hidden,
   * as their posts are, from the people they blocked or who blocked them. Their area has checked
   * that they may; no allowance, mute or slow mode applies. Null when the room is not held here
   * (any more); `fresh` false for a retry already shown.
   */
  async notice(
    user: { userId: string; username: string },
    n: { roomId: string; clientId: string; text: string; gift?: number },
  ): Promise<{ message: RoomMessage; fresh: boolean } | null> {
    if (!this.policyOf(n.roomId)) return null;
    const hiddenFrom = this.deps.blocksOf ? [...(await this.deps.blocksOf(user.userId))] : [];
    // The room may have ended while the blocks were read.
    if (!this.policyOf(n.roomId)) return null;
    const { message, fresh } = await this.keep(
      {
        roomId: n.roomId,
        senderId: user.userId,
        senderName: user.username,
        text: n.text,
        clientId: n.clientId,
        mentions: [],
        gift: n.gift,
      },
      (r) => {
        if (r.fresh && r.message) this.deps.fanout.toRoom(n.roomId, wire.message, r.message, undefined, hiddenFrom);
      },
    );
    return message && { message, fresh };
  }

  /**
   * Keeps a new message where its kind keeps them and sends it to the room once kept (`sent`):
   * stored kinds in the next batch statement, held kinds in memory at once. Either way ids follow
   * the order posts arrive in, and a resend is answered with the copy kept before (not fresh).
   */
  private keep(m: NewMessage, sent: (r: { message: RoomMessage | null; fresh: boolean }) => void) {
    const policy = this.policyOf(m.roomId);
    if (!policy) return this.postWrites.add(m, sent);
    // A held log keeps the message before its first await: ids are given, and messages sent, in call order.
    const before = policy.log.lastId(m.roomId);
    return policy.log.insert(m).then((message) => {
      const r = { message, fresh: message !== null && message.id > before };
      sent(r);
      return r;
    });
  }

  /** Tells followers a group message got an answer (a reply or a reaction) from someone else. */
  private async answered(roomId: string, messageId: number, by: string, authorId?: string | null) {
    const author = authorId === undefined ? (await this.logOf(roomId).author(roomId, messageId))?.senderId : authorId;
    if (author && author !== by) this.events.emit('answered', { roomId, messageId, authorId: author, by });
  }

  private announce(room: RoomAccess['room'], m: RoomMessage, user: TokenUser) {
    const preview = previewOf(m);
    if (room.kind === 'direct') {
      // A direct room's key names its two members: no lookup.
      void Promise.resolve(room.directMemberIds ?? this.members.memberIds(m.roomId)).then(
        (ids) => {
          this.deps.fanout.toUsers(ids, wire.activity, {
            roomId: m.roomId,
            kind: 'direct',
            lastMessageId: m.id,
            senderId: user.userId,
            sentAt: m.sentAt,
          } satisfies UnreadNotice);
          for (const recipientId of ids.filter((id) => id !== user.userId))
            this.events.emit('directMessage', {
              recipientId,
              roomId: m.roomId,
              senderId: user.userId,
              senderName: user.username,
              messageId: m.id,
              preview,
            });
        },
        () => undefined,
      );
      return;
    }
    // A thread's reply is told to the thread's followers (threadPosted), not the whole room.
    if (room.kind === 'group' && m.threadId === undefined)
      this.tellGroupActivity({ roomId: m.roomId, kind: 'group', lastMessageId: m.id, senderId: user.userId, sentAt: m.sentAt });
    for (const mentionedUserId of m.mentions)
      this.events.emit('mentioned', {
        mentionedUserId,
        roomId: m.roomId,
        roomName: room.name,
        messageId: m.id,
        ...(m.threadId !== undefined && { threadId: m.threadId }),
        senderId: user.userId,
        senderName: user.username,
        preview,
      });
  }

  /**
   * Tells a group room's members that it moved on (their unread counts), at once and then at most
   * once per GROUP_ACTIVITY_MS: what came meanwhile is told at the end of the window, as its latest message.
   */
  private tellGroupActivity(n: UnreadNotice) {
    const window = this.groupActivity.get(n.roomId);
    if (window) {
      window.next = n;
      return;
    }
    void this.members.memberIds(n.roomId).then(
      (ids) => this.deps.fanout.toUsers(ids, wire.activity, n),
      () => undefined,
    );
    const timer = setTimeout(() => {
      const next = this.groupActivity.get(n.roomId)?.next;
      this.groupActivity.delete(n.roomId);
      if (next) this.tellGroupActivity(next);
    }, GROUP_ACTIVITY_MS);
    timer.unref();
    this.groupActivity.set(n.roomId, { timer, next: undefined });
  }

  /** Authors edit their own messages; nobody edits another's. */
  async edit(user: TokenUser, roomId: string, id: number, text: string, socketId?: string) {
    await this.writable(roomId, user.userId, socketId);
    this.refuseIfFixed(roomId, 'Messages here cannot be edited.');
    const log = this.logOf(roomId);
    const author = await log.author(roomId, id);
    if (!author || author.deleted) throw refusal('not_found', 'That message is gone.', 'unknown_message');
    if (author.senderId !== user.userId) throw refusal('forbidden', 'You can edit only your own messages.', 'not_author');
    const m = await log.edit(roomId, id, text, this.deps.verifiedEmoji?.(user.userId, text));
    if (m) this.deps.fanout.toRoom(roomId, wire.changed, m);
  }

  /** `refused` is the whole sentence (edited, reacted to), so that each is worded in every language. */
  private refuseIfFixed(roomId: string, refused: string) {
    if (this.policyOf(roomId)?.fixed) throw refusal('forbidden', refused, 'not_allowed');
  }

  /** Authors delete their own messages; the owner and moderators of a group remove anyone's. */
  async remove(user: TokenUser, roomId: string, id: number, socketId?: string) {
    const { member, room } = await this.readable(roomId, user.userId, socketId);
    const log = this.logOf(roomId);
    const author = await log.author(roomId, id);
    if (!author || author.deleted) throw refusal('not_found', 'That message is gone.', 'unknown_message');
    const own = author.senderId === user.userId;
    // A 1:1 chat's picture goes with its message (a stored room's store forgets its own).
    const picture = this.policyOf(roomId)?.pictures ? (await log.one(roomId, id))?.attachment : undefined;
    if (!own && member.role === 'member') throw refusal('forbidden', 'You can delete only your own messages.', 'not_author');
    const m = await log.remove(roomId, id, user.userId);
    if (!m) return;
    this.deps.fanout.toRoom(roomId, wire.changed, m);
    if (picture) await this.chatPictures.forget(roomId, picture.id);
    // A thread's reply gone: its root's count goes down.
    if (author.threadId !== undefined) {
      const root = await this.messages.one(roomId, author.threadId);
      if (root) this.deps.fanout.toRoom(roomId, wire.changed, root);
    }
    // A moderator's removal is on the record, whichever way it was asked for: a stored room's own, a stream's channel's.
    const recordIn = room.kind === 'group' || room.kind === 'direct' ? roomId : this.policyOf(roomId)?.moderation?.room(roomId)?.storeId;
    if (!own && recordIn)
      await this.deps.db.insert(roomModerationLog).values({
        roomId: recordIn,
        actorId: user.userId,
        action: 'removeMessage',
        targetUserId: author.senderId || null,
        detail: `#${id}`,
      });
  }

  async react(user: TokenUser, roomId: string, id: number, emoji: string, on: boolean, socketId?: string) {
    const { room } = await this.writable(roomId, user.userId, socketId);
    this.refuseIfFixed(roomId, 'Messages here cannot be reacted to.');
    if (!this.deps.allowPost(`${roomId}:${user.userId}:react`))
      throw refusal('too_many', 'Too many reactions at once. Slow down a little.', 'rate_limited', 1);
    const m = await this.logOf(roomId).react(roomId, id, user.userId, emoji, on);
    if (!m) throw refusal('not_found', 'That message is gone.', 'unknown_message');
    this.deps.fanout.toRoom(roomId, wire.changed, m);
    if (on && room.kind === 'group') void this.answered(roomId, id, user.userId, m.senderId || null);
  }

  /** Typing reaches the others following the room; only a socket that follows it (a member's) may say it. */
  typing(socketId: string, user: TokenUser, roomId: string, typing: boolean) {
    if (!this.presence.has(roomId, socketId)) return false;
    this.deps.fanout.toRoom(roomId, wire.typing, { roomId, userId: user.userId, username: user.username, typing }, socketId);
    return true;
  }

  async read(user: TokenUser, roomId: string, lastReadId: number, socketId?: string) {
    const access = await this.readable(roomId, user.userId, socketId);
    // A held kind keeps its positions with the room (a 1:1 chat's "seen"); a stream's chat has none.
    const reads = this.policyOf(roomId)?.reads;
    if (reads) {
      const moved = reads.mark(roomId, user.userId, lastReadId);
      if (moved !== null) await this.tellRead(roomId, user.userId, moved, Object.keys(reads.positions(roomId)));
      return;
    }
    if (access.room.kind !== 'group' && access.room.kind !== 'direct') return;
    const position = await this.members.markRead(roomId, user.userId, lastReadId);
    if (position !== null && access.room.kind === 'direct')
      await this.tellRead(roomId, user.userId, position, access.room.directMemberIds ?? (await this.members.memberIds(roomId)));
  }

  /** A member who is muted, in a closed room or in a read-only one may still read, not write. */
  private async writable(roomId: string, userId: string, socketId?: string) {
    const access = await this.readable(roomId, userId, socketId);
    if (access.room.closed) throw refusal('forbidden', GROUP_REFUSALS.closed, 'closed');
    const m = access.member;
    if (m.mutedUntil !== null && m.mutedUntil > this.now()) throw refusal('forbidden', GROUP_REFUSALS.muted, 'muted');
    if (access.room.readOnly && m.role === 'member') throw refusal('forbidden', GROUP_REFUSALS.readOnly, 'read_only');
    return access;
  }

  /** The people with the room open now, owner and moderators first, at most PEOPLE_SHOWN. */
  async people(roomId: string): Promise<RoomMemberView[]> {
    const here = this.presence.usersIn(roomId).slice(0, PEOPLE_SHOWN);
    const policy = this.policyOf(roomId);
    if (policy) return policy.people(roomId, here);
    return (await this.members.views(roomId, here)).map((v) => ({ ...v, here: true }));
  }

  /** Told at most once a second per room: a busy room's arrivals would otherwise flood everyone. */
  peopleChanged(roomId: string) {
    if (this.peopleTimers.has(roomId)) return;
    this.peopleTimers.set(
      roomId,
      setTimeout(() => {
        this.peopleTimers.delete(roomId);
        this.people(roomId).then(
          (people) => this.deps.fanout.toRoom(roomId, wire.people, { roomId, people }),
          () => undefined,
        );
      }, 250),
    );
  }

  /** Takes a user out of a room's live traffic and tells their pages why (kick, ban, closing, leaving). */
  removed(userId: string, removed: RemovedFromRoom) {
    this.accessChanged({ roomId: removed.roomId, userId: removed.reason === 'closed' ? undefined : userId });
    this.deps.fanout.toUsers([userId], wire.removed, removed);
    this.deps.fanout.unwatchUser(userId, removed.roomId);
    if (this.presence.leaveUser(removed.roomId, userId)) this.peopleChanged(removed.roomId);
  }

  /**
   * One of two people blocked the other: their direct conversation closes both ways, and the pages
   * that have it open are told why (a block leaves no friendship to keep it open).
   */
  async blocked(a: string, b: string) {
    this.accessChanged({ userIds: [a, b] });
    const [row] = rowsOf(
      await this.deps.db.execute(sql`select id from stored_rooms where kind = 'direct' and direct_key in (${`${a}:${b}`}, ${`${b}:${a}`})`),
    );
    if (!row) return;
    const removed: RemovedFromRoom = { roomId: row.id as string, reason: 'closed', by: null, note: DIRECT_REFUSALS.blocked };
    for (const userId of [a, b]) this.removed(userId, removed);
  }

  /** The room is gone (a stream ended): nobody follows it any more; its pages were told by its area. */
  ended(roomId: string) {
    this.deps.fanout.unwatchAll(roomId);
    // Its posters' slow-mode times go with it (a busy server sees thousands of streams come and go).
    this.lastPost.delete(roomId);
    this.presence.forget(roomId);
    this.kinds.delete(roomId);
    clearTimeout(this.peopleTimers.get(roomId));
    this.peopleTimers.delete(roomId);
  }

  /** A moderator muted `userId` here until `mutedUntil` (or lifted it): their pages say so before they type. */
  muted(userId: string, roomId: string, mutedUntil: number | null) {
    this.accessChanged({ roomId, userId });
    this.deps.fanout.toUsers([userId], wire.muted, { roomId, mutedUntil } satisfies MutedInRoom);
  }

  /** The room's owner and moderators (`userIds`) read its mutes, bans and slow mode again, on every page of theirs. */
  restrictionsChanged(roomId: string, userIds: string[]) {
    if (userIds.length > 0) this.deps.fanout.toUsers(userIds, wire.restrictions, { roomId } satisfies RestrictionsChanged);
  }

  /** Everyone following a room hears it changed (a setting, a role). */
  broadcast(roomId: string, event: string, payload: unknown) {
    this.deps.fanout.toRoom(roomId, event, payload);
  }

  /** Every post received so far is stored (its batch written): a server stopping waits for it. */
  flush(): Promise<void> {
    return this.postWrites.settled();
  }

  async close() {
    for (const t of this.peopleTimers.values()) clearTimeout(t);
    this.peopleTimers.clear();
    for (const w of this.groupActivity.values()) clearTimeout(w.timer);
    this.groupActivity.clear();
    this.chatPictures.close();
    await this.flush();
  }
}
