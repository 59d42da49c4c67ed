import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, RESUME_GRACE_MS } from '@parley/contract/chat';
import { rtcEvents, MAX_CALL_ATTEMPTS, type CallRedial } from '@parley/contract/rtc';
import type {
  ChatFilters,
  ChatMessage,
  MessageAck,
  PartnerLeft,
  PartnerPresence,
  ResumeAnswer,
  RoomSetup,
  RoomType,
  SearchingState,
  SendMessage,
  SocketError,
  StartSearch,
  Typing,
} from '@parley/contract/chat';
import type { Seeker } from './matcher.ts';
import type { Match, Matchmaker, MatchListener } from './matchmaker.ts';

/** How the chat reaches sockets; chat/socket.ts implements it with socket.io. */
export interface ChatOutbox {
  searching(socketId: string, state: SearchingState): void;
  matched(socketId: string, setup: RoomSetup): void;
  partnerLeft(socketId: string, left: PartnerLeft): void;
  typing(socketId: string, typing: Typing): void;
  /** The partner's connection dropped; their chat is held for them to come back. */
  partnerAway(socketId: string, away: PartnerPresence): void;
  /** The partner came back (resumed the held chat). */
  partnerBack(socketId: string, back: PartnerPresence): void;
  /** The video room's call is placed again, under the peer ids of this attempt. */
  redial(socketId: string, redial: CallRedial): void;
  /** A step the server took on its own (a requeue) failed: the client stops waiting for it. */
  error(socketId: string, error: SocketError): void;
  /**
   * Relays a message; `done(true)` once the partner's client acknowledged it, `done(false)` on
   * timeout. A callback rather than a promise: this is the hot path of every chat message.
   */
  deliver(socketId: string, message: ChatMessage, done: (delivered: boolean) => void): void;
}

export type ChatSessionsDeps = {
  outbox: ChatOutbox;
  createMatchmaker(onMatch: MatchListener): Matchmaker;
  /** Users this one blocked or was blocked by. */
  blocksOf(userId: string): Promise<ReadonlySet<string>>;
  recordTopics(userId: string, topics: string[]): void;
  /** How long a chat whose socket dropped is held for the same page to resume it (RESUME_GRACE_MS). */
  resumeGraceMs?: number;
  /** Per-user message allowance (all tabs together); false when over the limit. */
  allowMessage(userId: string): boolean;
  /** A held chat moved to its page's new socket (the video pairing seats that socket in the room). */
  onResumed?(resumed: ResumedRoom): void;
  onError(err: unknown): void;
};

/** A chat taken back by its page on a new socket. */
export type ResumedRoom = { socketId: string; roomId: string; roomType: RoomType; userId: string; partnerId: string };

const CALL_GIVEN_UP = 'The video call could not be set up. You can still chat by text, or press Next.';

export class ChatError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** `call` is one object shared by both sides of the room: the current attempt of its video call. */
type Room = { roomId: string; partner: string; call: { attempt: number } };

/** A relayed message awaiting the partner's acknowledgement. */
type Delivery = { id: string; sentAt: number; reply: (ack: MessageAck) => void };

/** One socket's chat: a chat session belongs to the socket (tab) that started it. */
type Session = {
  socketId: string;
  user: TokenUser;
  /** The sign-in (refresh-token family) the socket's token belongs to, when known. */
  sid: string | undefined;
  search: StartSearch | undefined;
  /** The client's name for its current search (start or next), echoed in what answers it. */
  searchId: string | undefined;
  searching: boolean;
  room: Room | undefined;
  /** What `matched` told this socket about its room (without the search id). */
  setup: RoomSetup | undefined;
  /** Bumped by every start/stop so a late async step of an older request does nothing. */
  generation: number;
  /**
   * Messages relayed to this socket that its client has not acknowledged yet. Should the socket
   * go, their senders learn at once that they were not delivered instead of after the timeout;
   * a delivery no longer listed here has been answered.
   */
  inbound: Delivery[];
  /** Set while the socket is gone and the chat is held for the page to resume it. */
  away: { key: string; timer: ReturnType<typeof setTimeout> } | undefined;
  /** Held, and the partner left meanwhile: the page is told so when it asks for the chat. */
  partnerLeft: string | undefined;
};

/**
 * The text and video chat sessions: searching, rooms, skip, leave and the message relay. Domain
 * logic only (no socket.io types); messages of 1:1 chats are relayed, never stored.
 */
export class ChatSessions {
  /** By socket id; a held session stays under the id of the socket it lost until it resumes. */
  private readonly sessions = new Map<string, Session>();
  /** Held chats (text and video) by their page's resume key (user and tab). */
  private readonly held = new Map<string, Session>();
  private readonly matchmaker: Matchmaker;

  constructor(private readonly deps: ChatSessionsDeps) {
    this.matchmaker = deps.createMatchmaker((m) => this.onMatch(m));
  }

  connect(socketId: string, user: TokenUser, sid?: string) {
    this.sessions.set(socketId, {
      socketId,
      user,
      sid,
      search: undefined,
      searchId: undefined,
      searching: false,
      room: undefined,
      setup: undefined,
      generation: 0,
      inbound: [],
      away: undefined,
      partnerLeft: undefined,
    });
    // Load the block list now so that starting a search does not wait for the database.
    this.deps.blocksOf(user.userId).catch(() => undefined);
  }

  /**
   * A new search. `resumeKey` names the page when it can have a chat held (see disconnect()): a
   * page that searches again instead of resuming never learnt of that chat (see takeBackUnseen()).
   */
  async start(socketId: string, search: StartSearch, resumeKey?: string) {
    const s = this.sessions.get(socketId);
    if (!s) return;
    if (resumeKey !== undefined && this.takeBackUnseen(s, resumeKey, search)) return;
    const generation = ++s.generation;
    if (s.room) this.leaveRoom(s, 'skip');
    if (s.searching) await this.matchmaker.cancel(socketId);
    s.search = search;
    s.searchId = search.searchId;
    s.searching = true;
    this.deps.recordTopics(s.user.userId, search.filters.topics);
    await this.enqueue(s, generation, false);
  }

  /** Skip: ends the room and looks for the next partner with the same filters. */
  async next(socketId: string, searchId?: string) {
    const s = this.sessions.get(socketId);
    if (!s) return;
    if (!s.search) throw new ChatError('Start a search first.', 'not_searching');
    // Already searching (a requeue crossed the skip): the search under way now answers to this name.
    s.searchId = searchId;
    if (s.searching) return;
    if (s.room) this.leaveRoom(s, 'skip');
    await this.requeue(s);
  }

  /** Automatic reconnect switched mid-search or mid-chat: the next requeue follows it. */
  setAutomaticReconnect(socketId: string, automaticReconnect: boolean) {
    const s = this.sessions.get(socketId);
    if (s?.search) s.search = { ...s.search, automaticReconnect };
  }

  /** Stop: ends the search or the chat, and a chat still held for this page (`resumeKey`). */
  async stop(socketId: string, resumeKey?: string) {
    const s = this.sessions.get(socketId);
    if (!s) return;
    if (resumeKey !== undefined) this.endHeldFor(s, resumeKey);
    await this.end(s, 'left');
  }

  /**
   * The socket went. `resumeKey` (its user and page) when the connection dropped rather than
   * being closed on purpose: its chat is then held for the page to resume it (resume()).
   */
  async disconnect(socketId: string, resumeKey?: string) {
    const s = this.sessions.get(socketId);
    if (!s) return;
    for (const d of s.inbound.splice(0)) answer(d, false);
    if (resumeKey !== undefined && this.hold(s, resumeKey)) return;
    this.sessions.delete(socketId);
    await this.end(s, 'disconnected');
  }

  /**
   * The page whose connection dropped is back on a new socket and asks for its chat: the held
   * session moves to the new socket, and the partner is told. Refused (the chat has ended) when
   * nothing is held for this page and room, or the new socket has started something else.
   */
  resume(socketId: string, resumeKey: string, roomId: string): ResumeAnswer {
    const s = this.held.get(resumeKey);
    const fresh = this.sessions.get(socketId);
    if (s && fresh && s.user.userId === fresh.user.userId && s.partnerLeft === roomId) {
      this.release(s);
      this.sessions.delete(s.socketId);
      return { ok: false, partnerLeft: true };
    }
    if (!s || !fresh || s.user.userId !== fresh.user.userId || s.room?.roomId !== roomId || fresh.room || fresh.searching)
      return { ok: false };
    const partner = this.takeBack(s, fresh);
    if (!partner) return { ok: false };
    const { attempt } = s.room!.call;
    return attempt > 0
      ? { ok: true, partnerAway: partner.away !== undefined, callAttempt: attempt }
      : { ok: true, partnerAway: partner.away !== undefined };
  }

  /**
   * Relays a message to the partner and answers `reply` once the partner's client acknowledged it
   * (or did not in time). Throws a ChatError, before relaying anything, when it cannot be sent.
   */
  send(socketId: string, message: SendMessage, reply: (ack: MessageAck) => void): void {
    const s = this.sessions.get(socketId);
    if (!s?.room) throw new ChatError('You are not in a chat right now.', 'not_in_room');
    if (!this.deps.allowMessage(s.user.userId))
      throw new ChatError('You are sending messages too fast. Wait a moment and try again.', 'rate_limited');
    // The partner's session when it is connected to this process (the adapter reaches any other).
    const target = this.sessions.get(s.room.partner);
    if (target?.away) throw new ChatError('Stranger lost their connection. Wait a moment for them to come back.', 'partner_away');
    const delivery: Delivery = { id: message.id, sentAt: Date.now(), reply };
    target?.inbound.push(delivery);
    this.deps.outbox.deliver(s.room.partner, { id: delivery.id, text: message.text, sentAt: delivery.sentAt }, (delivered) => {
      // Already answered (not delivered) when the partner's socket went first.
      if (target && !remove(target.inbound, delivery)) return;
      answer(delivery, delivered);
    });
  }

  /**
   * Places a video room's call again (rtcEvents in the contract): both sides get the next attempt.
   * An ask naming another attempt than the current one places nothing; the asker is told the
   * current one. Refused while the partner is away (the page asks again once they are back) and
   * past MAX_CALL_ATTEMPTS, which both sides are told.
   */
  redial(socketId: string, ask: CallRedial): void {
    const s = this.sessions.get(socketId);
    const room = s?.room;
    if (!room || room.roomId !== ask.roomId || s.setup?.roomType !== 'videoChat')
      throw new ChatError('You are not in this video chat any more.', 'not_in_room');
    // Asked for another attempt than the current one: the other side asked first, or this side
    // missed the answer (its connection dropped meanwhile); it learns the current one.
    if (ask.attempt !== room.call.attempt) return this.deps.outbox.redial(s.socketId, { roomId: room.roomId, attempt: room.call.attempt });
    if (this.sessions.get(room.partner)?.away)
      throw new ChatError('Stranger lost their connection. The call is placed again once they are back.', 'partner_away');
    if (room.call.attempt + 1 >= MAX_CALL_ATTEMPTS) {
      // Both sides hear it: the side whose call did not fail saw it end without a word.
      const error: SocketError = { event: rtcEvents.redial, message: CALL_GIVEN_UP, code: 'call_attempts_exhausted' };
      this.deps.outbox.error(room.partner, error);
      throw new ChatError(CALL_GIVEN_UP, error.code);
    }
    const redial: CallRedial = { roomId: room.roomId, attempt: ++room.call.attempt };
    this.deps.outbox.redial(s.socketId, redial);
    this.deps.outbox.redial(room.partner, redial);
  }

  /** A user (ban) or a sign-in (sign-out) was ended on purpose: chats held for their pages end too. */
  endHeld(ended: { userId: string } | { sid: string }) {
    for (const s of [...this.held.values()]) if ('userId' in ended ? s.user.userId === ended.userId : s.sid === ended.sid) this.expire(s);
  }

  typing(socketId: string, typing: Typing) {
    const room = this.sessions.get(socketId)?.room;
    if (room && !this.sessions.get(room.partner)?.away) this.deps.outbox.typing(room.partner, typing);
  }

  /** Sessions connected to this process (diagnostics). */
  get size() {
    return this.sessions.size;
  }

  async close() {
    for (const s of [...this.held.values()]) this.release(s);
    await this.matchmaker.close();
  }

  // ---- internals ----

  private async end(s: Session, reason: PartnerLeft['reason']) {
    s.generation++;
    if (s.room) this.leaveRoom(s, reason);
    if (s.searching) {
      s.searching = false;
      await this.matchmaker.cancel(s.socketId);
    }
  }

  /**
   * Holds a dropped socket's chat for RESUME_GRACE_MS; false when there is none to hold. A video
   * chat's call is peer to peer: it may well have gone on without the socket, and the room's text
   * chat with it.
   */
  private hold(s: Session, key: string): boolean {
    const room = s.room;
    if (!room) return false;
    const partner = this.sessions.get(room.partner);
    if (partner?.room?.roomId !== room.roomId) return false;
    // An older chat held for the same page (it cannot resume both) ends.
    const older = this.held.get(key);
    if (older) this.expire(older);
    s.generation++;
    const timer = setTimeout(() => this.expire(s), this.deps.resumeGraceMs ?? RESUME_GRACE_MS);
    timer.unref();
    s.away = { key, timer };
    this.held.set(key, s);
    if (!partner.away) this.deps.outbox.partnerAway(partner.socketId, { roomId: room.roomId });
    return true;
  }

  /**
   * Moves a held chat to its page's new socket, in place of that socket's fresh session, and tells
   * the partner; undefined (nothing moved) when the partner is no longer in the room.
   */
  private takeBack(s: Session, fresh: Session): Session | undefined {
    const roomId = s.room!.roomId;
    const partner = this.sessions.get(s.room!.partner);
    if (partner?.room?.roomId !== roomId) return undefined;
    this.release(s);
    this.sessions.delete(s.socketId);
    s.socketId = fresh.socketId;
    s.user = fresh.user;
    s.sid = fresh.sid;
    s.generation++;
    this.sessions.set(fresh.socketId, s);
    partner.room = { ...partner.room, partner: fresh.socketId };
    if (!partner.away) this.deps.outbox.partnerBack(partner.socketId, { roomId });
    if (s.search)
      this.deps.onResumed?.({
        socketId: fresh.socketId,
        roomId,
        roomType: s.search.roomType,
        userId: s.user.userId,
        partnerId: partner.user.userId,
      });
    return partner;
  }

  /**
   * The page's connection dropped as it was matched: `matched` never reached it, and back on a new
   * socket it sends its search again, under the same search id, rather than resuming. A text chat
   * then goes on: the page gets the room that search was matched to, instead of its partner waiting
   * out the grace for a page that will never ask for it. Any other start ends the held chat at once:
   * a new search id (the page had moved on: a Next or a Stop lost with the old connection must not
   * put it back with the stranger it left) or other filters. A video room comes back with the
   * attempt of its call under way: the page joins that call, or, when its partner's failed
   * meanwhile, the partner's redial places it again (rtcEvents). True when the start is answered.
   */
  private takeBackUnseen(fresh: Session, key: string, search: StartSearch): boolean {
    const held = this.held.get(key);
    if (!held || held.user.userId !== fresh.user.userId) return false;
    const room = held.room;
    const setup = held.setup;
    const same =
      room !== undefined &&
      setup?.roomId === room.roomId &&
      search.searchId !== undefined &&
      search.searchId === held.searchId &&
      held.search?.roomType === search.roomType &&
      sameFilters(held.search.filters, search.filters) &&
      !fresh.room &&
      !fresh.searching;
    const partner = same ? this.takeBack(held, fresh) : undefined;
    if (!partner) {
      this.expire(held);
      return false;
    }
    held.search = search;
    const { attempt } = room!.call;
    this.deps.outbox.matched(held.socketId, withSearchId(attempt > 0 ? { ...setup!, callAttempt: attempt } : setup!, search.searchId));
    if (partner.away) this.deps.outbox.partnerAway(held.socketId, { roomId: room!.roomId });
    return true;
  }

  /** The chat held for this page (its user's) ends: the page has moved on. */
  private endHeldFor(fresh: Session, key: string) {
    const held = this.held.get(key);
    if (held && held.user.userId === fresh.user.userId) this.expire(held);
  }

  private release(s: Session) {
    if (!s.away) return;
    clearTimeout(s.away.timer);
    if (this.held.get(s.away.key) === s) this.held.delete(s.away.key);
    s.away = undefined;
  }

  /** A held chat that was not resumed in time (or cannot be any more) ends: the partner is told. */
  private expire(s: Session) {
    if (!s.away) return;
    this.release(s);
    this.sessions.delete(s.socketId);
    this.end(s, 'disconnected').catch(this.deps.onError);
  }

  private async requeue(s: Session) {
    const generation = ++s.generation;
    s.searching = true;
    await this.enqueue(s, generation, true);
  }

  /**
   * Puts the session in the queue. `searching` tells the client it waits (a requeue after a
   * partner left too); a search matched at once gets `matched` alone.
   */
  private async enqueue(s: Session, generation: number, requeued?: boolean) {
    const blocked = await this.deps.blocksOf(s.user.userId);
    // A stop, a new start or a disconnect came in while the blocks were loading.
    if (s.generation !== generation || !s.searching || this.sessions.get(s.socketId) !== s) return;
    const seeker: Seeker = {
      ticket: s.socketId,
      userId: s.user.userId,
      roomType: s.search!.roomType,
      gender: s.user.gender,
      age: s.user.age,
      filters: s.search!.filters,
      blocked,
    };
    await this.matchmaker.enqueue(seeker);
    if (requeued !== undefined && s.searching && s.generation === generation)
      this.deps.outbox.searching(s.socketId, withSearchId({ roomType: seeker.roomType, requeued }, s.searchId));
  }

  private leaveRoom(s: Session, reason: PartnerLeft['reason']) {
    const room = s.room!;
    s.room = undefined;
    s.setup = undefined;
    const partner = this.sessions.get(room.partner);
    if (!partner || partner.room?.roomId !== room.roomId) return;
    partner.room = undefined;
    partner.setup = undefined;
    // A held partner has nothing left to resume; it stays held (not searching) until its page
    // asks, to be told that the stranger left, or until the grace ends.
    if (partner.away) {
      partner.partnerLeft = room.roomId;
      return;
    }
    this.deps.outbox.partnerLeft(partner.socketId, { roomId: room.roomId, reason });
    if (partner.search?.automaticReconnect) this.searchOnOrGiveUp(partner, () => this.requeue(partner));
  }

  /**
   * A search the server starts on its own (requeue, a match whose other side vanished). Should it
   * fail (the block list could not be read), the client is told and the session stops searching,
   * rather than showing "searching" for ever while it is in no queue.
   */
  private searchOnOrGiveUp(s: Session, search: () => Promise<void>) {
    const promise = search();
    const generation = s.generation;
    promise.catch((err: unknown) => {
      this.deps.onError(err);
      // A newer start, stop or skip since then is not this failure's to undo. (requeue bumps the
      // generation before it can fail, so the current one is this search's.)
      if (this.sessions.get(s.socketId) !== s || !s.searching || s.generation !== generation) return;
      s.generation++;
      s.searching = false;
      this.matchmaker.cancel(s.socketId).catch(this.deps.onError);
      this.deps.outbox.error(
        s.socketId,
        withSearchId(
          { event: chatEvents.next, message: 'Could not look for a new partner. Press Start to try again.', code: 'internal' },
          s.searchId,
        ),
      );
    });
  }

  private onMatch(m: Match) {
    const a = this.sessions.get(m.a.ticket);
    const b = this.sessions.get(m.b.ticket);
    const live = (s: Session | undefined) => s !== undefined && s.searching && !s.room;
    if (!live(a) || !live(b)) {
      // A side vanished between the match and now (possible with a remote matchmaker): the other searches on.
      for (const s of [a, b]) if (live(s)) this.searchOnOrGiveUp(s!, () => this.enqueue(s!, s!.generation));
      return;
    }
    const call = { attempt: 0 };
    for (const [me, other, seeker] of [
      [a!, b!, m.a],
      [b!, a!, m.b],
    ] as const) {
      me.searching = false;
      me.room = { roomId: m.roomId, partner: other.socketId, call };
      me.setup = {
        roomId: m.roomId,
        roomType: m.roomType,
        receiver: {
          userId: other.user.userId,
          username: other.user.username,
          avatar: other.user.avatar,
          age: other.user.age,
          gender: other.user.gender,
          sharedTopics: m.sharedTopics,
        },
        noCommonTopic: seeker.filters.topics.length > 0 && m.sharedTopics.length === 0,
        // Exactly one side places the video call: the smaller user id.
        initiator: me.user.userId < other.user.userId,
      };
      this.deps.outbox.matched(me.socketId, withSearchId(me.setup, me.searchId));
    }
  }
}

/** Adds the client's search id to what answers that search, when it named one. */
const withSearchId = <T extends object>(payload: T, searchId: string | undefined): T & { searchId?: string } =>
  searchId === undefined ? payload : { ...payload, searchId };

/** The same filters, whatever the order of the topics. */
function sameFilters(a: ChatFilters, b: ChatFilters): boolean {
  return (
    a.gender === b.gender &&
    a.ageRange.minAge === b.ageRange.minAge &&
    a.ageRange.maxAge === b.ageRange.maxAge &&
    a.topics.length === b.topics.length &&
    a.topics.every((t) => b.topics.includes(t))
  );
}

const answer = (d: Delivery, delivered: boolean) => d.reply({ ok: true, id: d.id, sentAt: d.sentAt, delivered });

/** Removes one element without keeping order (the in-flight lists are short); false when absent. */
function remove<T>(list: T[], item: T): boolean {
  const i = list.indexOf(item);
  if (i < 0) return false;
  list[i] = list[list.length - 1]!;
  list.pop();
  return true;
}
