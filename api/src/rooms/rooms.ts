import type { TokenUser } from '@parley/contract/auth';
import { RESUME_GRACE_MS, type PartnerLeft, type PartnerPresence, type ResumeAnswer } from '@parley/contract/matchmaking';
import type { RoomKind } from '@parley/contract/rooms';
import { roomEvents, type LeaveReason, type RoomEventListener, type RoomEvents, type RoomMember } from './events.ts';
import { memoryRooms, type Room, type RoomStore, type Seat } from './store.ts';

/** How rooms reach their members' sockets about the room's life; rooms/socket.ts implements it with socket.io. */
export interface RoomOutbox {
  /** The other member left; the room has ended. */
  memberLeft(socketId: string, left: PartnerLeft): void;
  /** The other member's connection dropped; the room is held for them to come back. */
  memberAway(socketId: string, away: PartnerPresence): void;
  /** The other member came back (took the held room back). */
  memberBack(socketId: string, back: PartnerPresence): void;
}

export type RoomsDeps = {
  outbox: RoomOutbox;
  store?: RoomStore;
  /** How long a room whose member's socket dropped is held for the same page to take it back (RESUME_GRACE_MS). */
  resumeGraceMs?: number;
  /** The socket has started something else (a search): it cannot take a held room back. */
  busy?(socketId: string): boolean;
  /** The attempt of the room's video call, when it was placed again (rtc/); told to a page that takes the room back. */
  callAttempt?(roomId: string): number;
  /** The other API processes, when scaled out (rooms/cluster.ts): a room's members may be in two. */
  peers?: RoomPeers;
};

/** What a room of two spread over two API processes needs from the other one (rooms/cluster.ts). */
export type RoomPeers = {
  /** This process's instance id. */
  readonly home: string;
  /** The room ended: the process holding `socketId` (its other member) tells it. */
  left(e: { roomId: string; socketId: string; by: string; reason: LeaveReason }): void;
  /** A page took its room back here on a new socket: every process updates its copy, the old one forgets the held socket. */
  taken(e: { roomId: string; previousSocketId: string; socketId: string }): void;
  /** The socket is connected to no process any more (its connection dropped, or its process died). */
  gone(socketId: string): Promise<boolean>;
  /** Which of these processes are alive (their heartbeat). */
  alive(instanceIds: string[]): Promise<Set<string>>;
  /** The room's messages are held by `holder` from now on (`handedOver` by a process that drains): every process updates its copy. */
  holding(e: { roomId: string; holder: string; handedOver?: boolean }): void;
};

/** A member in another process whose process died: its room waits out the grace for its page to come back elsewhere. */
export type Vanished = { socketId: string; timer: ReturnType<typeof setTimeout> };

/** One socket (a page's connection) as rooms know it. */
export type Connection = {
  socketId: string;
  user: TokenUser;
  /** The sign-in (refresh-token family) the socket's token belongs to, when known. */
  sid: string | undefined;
  roomId: string | undefined;
  /** Set while the socket is gone and its room is held for the page to take it back. */
  away: { key: string; timer: ReturnType<typeof setTimeout> } | undefined;
  /** Held, and the other member left meanwhile: the page is told so when it asks for the room. */
  partnerLeft: string | undefined;
  /** The page's key (user and tab), when it named itself: a room can then be taken back from another process. */
  key: string | undefined;
};

/**
 * The 1:1 rooms' life: opening, leaving, and holding a room for a page whose connection dropped
 * until it takes it back. Every room has two members (the matchmaker's pairs) and ends when either
 * leaves. Domain logic only (no socket.io types); their conversation runs on the room core
 * (rooms/pairPolicy.ts). What happens is told to subscribers (`on`).
 */
export class Rooms {
  /** By socket id; a held member stays under the id of the socket it lost until its page is back. */
  protected readonly connections = new Map<string, Connection>();
  protected readonly store: RoomStore;
  protected readonly events = roomEvents();
  /** Per open room: when it opened, its members' users and who of them spoke (for `ended`). */
  private readonly talk = new Map<string, { openedAt: number; userIds: string[]; spoke: Set<string> }>();
  /** Scaled out: rooms whose member in another process vanished with that process, by room. */
  protected readonly vanished = new Map<string, Vanished>();
  /** This process is draining: its pages are moving to other processes, back in a moment. */
  private draining = false;

  constructor(protected readonly deps: RoomsDeps) {
    this.store = deps.store ?? memoryRooms();
  }

  on<K extends keyof RoomEvents>(name: K, listener: RoomEventListener<K>) {
    this.events.on(name, listener);
  }

  connect(socketId: string, user: TokenUser, sid?: string, key?: string) {
    this.connections.set(socketId, { socketId, user, sid, roomId: undefined, away: undefined, partnerLeft: undefined, key });
  }

  /**
   * The socket went. `resumeKey` (its user and page) when the connection dropped rather than being
   * closed on purpose: its room is then held for the page to take it back (resume()). True when held.
   */
  disconnect(socketId: string, resumeKey?: string): boolean {
    const c = this.connections.get(socketId);
    if (!c) return false;
    if (resumeKey !== undefined && this.hold(c, resumeKey)) return true;
    this.connections.delete(socketId);
    if (c.roomId !== undefined) this.leaveRoom(c, 'disconnected', false);
    return false;
  }

  /**
   * Opens a room with these sockets as its members (the matchmaker paired them). Scaled out, a
   * member may be in another process (`remote`), which opens its side of the same room; only the
   * side that `announce`s it tells the areas that follow rooms, so they hear of it once.
   */
  open(roomId: string, kind: RoomKind, socketIds: string[], remote?: { members: Record<string, Seat>; announce: boolean }) {
    const members: RoomMember[] = [];
    const seats: Seat[] = [];
    for (const id of socketIds) {
      const c = this.connections.get(id);
      const seat: Seat = c
        ? { userId: c.user.userId, home: this.deps.peers?.home ?? '', key: c.key, username: c.user.username, avatar: c.user.avatar }
        : remote!.members[id]!;
      if (c) c.roomId = roomId;
      members.push({ socketId: id, userId: seat.userId });
      seats.push(seat);
    }
    // Scaled out, the first member's process holds the room's messages; the other forwards there.
    this.store.put(
      this.deps.peers
        ? { roomId, kind, members: [...socketIds], seats, holder: seats[0]!.home }
        : { roomId, kind, members: [...socketIds] },
    );
    if (remote && !remote.announce) return;
    this.talk.set(roomId, { openedAt: Date.now(), userIds: members.map((m) => m.userId), spoke: new Set() });
    this.events.emit('matched', { roomId, kind, members });
  }

  /**
   * Scaled out: a match reached this process for a socket that has left meanwhile. The other
   * member's process has opened the room: it ends there.
   */
  decline(roomId: string, socketId: string, partnerSocketId: string) {
    this.deps.peers?.left({ roomId, socketId: partnerSocketId, by: socketId, reason: 'disconnected' });
  }

  /** The socket leaves its room, if it is in one: the room ends for the other member, who is told why. */
  leave(socketId: string, reason: LeaveReason) {
    const c = this.connections.get(socketId);
    if (c?.roomId !== undefined) this.leaveRoom(c, reason, false);
  }

  /**
   * `userId` reported or blocked `otherId`: every room of theirs together ends at once. The other
   * side is told `left`, as when a partner leaves; the pages of `userId` are told `reported`.
   * Scaled out, every process is asked (rooms/area.ts): each ends the rooms of its own sockets.
   */
  endBetween(userId: string, otherId: string) {
    for (const c of [...this.connections.values()]) {
      if (c.user.userId !== userId || c.roomId === undefined) continue;
      const room = this.store.room(c.roomId);
      if (!room || !room.members.some((id) => id !== c.socketId && this.memberIn(room, id).userId === otherId)) continue;
      const roomId = room.roomId;
      this.leaveRoom(c, 'left', c.away !== undefined);
      if (c.away) c.partnerLeft = roomId;
      else this.deps.outbox.memberLeft(c.socketId, { roomId, reason: 'reported' });
    }
  }

  /** The room the socket is in (a held member's under the socket it lost). */
  roomOf(socketId: string): Room | undefined {
    const roomId = this.connections.get(socketId)?.roomId;
    return roomId === undefined ? undefined : this.store.room(roomId);
  }

  inRoom(socketId: string): boolean {
    return this.connections.get(socketId)?.roomId !== undefined;
  }

  /**
   * Whether `userId` is a member of the open room (a held member too, under the socket it lost);
   * with `socketId`, whether that socket is their seat in it (another page of theirs is not).
   */
  isMember(roomId: string, userId: string, socketId?: string): boolean {
    const room = this.store.room(roomId);
    if (!room) return false;
    if (socketId !== undefined) return room.members.includes(socketId) && this.memberIn(room, socketId).userId === userId;
    return room.members.some((id) => this.memberIn(room, id).userId === userId);
  }

  kindOf(roomId: string): RoomKind | undefined {
    return this.store.room(roomId)?.kind;
  }

  /** The open room's members as its people list shows them. */
  membersOf(roomId: string): Array<{ userId: string; username: string; avatar: string }> {
    const room = this.store.room(roomId);
    if (!room) return [];
    return room.members.map((id, i) => {
      const c = this.connections.get(id);
      const seat = room.seats?.[i];
      return c
        ? { userId: c.user.userId, username: c.user.username, avatar: c.user.avatar }
        : { userId: seat?.userId ?? '', username: seat?.username ?? '', avatar: seat?.avatar ?? '' };
    });
  }

  /** The process that holds the open room's messages: this one unless scaled out and seated elsewhere; undefined when no room. */
  holderOf(roomId: string): string | undefined {
    const room = this.store.room(roomId);
    if (!room) return undefined;
    return room.holder ?? this.deps.peers?.home ?? '';
  }

  /** This process's id among the others ('' alone). */
  get home(): string {
    return this.deps.peers?.home ?? '';
  }

  /** `userId` said something in the room (a conversation, not a glance: it counts towards their standing). */
  spoke(roomId: string, userId: string) {
    this.talk.get(roomId)?.spoke.add(userId);
  }

  /** The socket is a member whose connection dropped: its room is held for its page. */
  isAway(socketId: string): boolean {
    return this.connections.get(socketId)?.away !== undefined;
  }

  /**
   * The page whose connection dropped is back on a new socket and asks for its room: the held
   * room moves to the new socket, and the other member is told. Refused (the room has ended) when
   * nothing is held for this page and room, or the new socket has started something else.
   */
  resume(socketId: string, resumeKey: string, roomId: string): ResumeAnswer {
    const held = this.heldConnection(resumeKey);
    const fresh = this.connections.get(socketId);
    if (held && fresh && held.user.userId === fresh.user.userId && held.partnerLeft === roomId) {
      this.release(held);
      this.connections.delete(held.socketId);
      return { ok: false, partnerLeft: true };
    }
    if (
      !held ||
      !fresh ||
      held.user.userId !== fresh.user.userId ||
      held.roomId !== roomId ||
      fresh.roomId !== undefined ||
      this.deps.busy?.(socketId)
    )
      return { ok: false };
    const partner = this.takeBack(held, fresh);
    if (!partner) return { ok: false };
    const attempt = this.deps.callAttempt?.(roomId) ?? 0;
    return attempt > 0 ? { ok: true, partnerAway: partner.away, callAttempt: attempt } : { ok: true, partnerAway: partner.away };
  }

  /** The room held for a page: the socket it lost, its user, and its room (undefined once the room ended). */
  heldFor(resumeKey: string): { socketId: string; userId: string; roomId: string | undefined } | undefined {
    const held = this.heldConnection(resumeKey);
    return held && { socketId: held.socketId, userId: held.user.userId, roomId: held.roomId };
  }

  /**
   * Moves the room held for a page to its new socket without being asked (the page never learnt
   * of the room); undefined, nothing moved, when the other member is no longer in it.
   */
  takeBackHeld(resumeKey: string, socketId: string): { partnerAway: boolean } | undefined {
    const held = this.heldConnection(resumeKey);
    const fresh = this.connections.get(socketId);
    if (!held || !fresh || held.roomId === undefined || fresh.roomId !== undefined) return undefined;
    const partner = this.takeBack(held, fresh);
    return partner && { partnerAway: partner.away };
  }

  /** The room held for this page ends, when it is this user's: the page has moved on. */
  endHeldFor(resumeKey: string, userId: string) {
    const held = this.heldConnection(resumeKey);
    if (held && held.user.userId === userId) this.expire(held);
  }

  /** A user (ban) or a sign-in (sign-out) was ended on purpose: rooms held for their pages end too. */
  endHeld(ended: { userId: string } | { sid: string }) {
    for (const h of this.store.heldRooms())
      if ('userId' in ended ? h.userId === ended.userId : h.sid === ended.sid) {
        const held = this.connections.get(h.socketId);
        if (held) this.expire(held);
      }
  }

  protected clearVanished(roomId: string) {
    const v = this.vanished.get(roomId);
    if (!v) return;
    clearTimeout(v.timer);
    this.vanished.delete(roomId);
  }

  protected endTalk(roomId: string, kind: RoomKind) {
    const talk = this.talk.get(roomId);
    if (!talk) return;
    this.talk.delete(roomId);
    this.events.emit('ended', { roomId, kind, userIds: talk.userIds, spoke: [...talk.spoke], openedAt: talk.openedAt });
  }

  /**
   * The process drains: its pages were told to reconnect elsewhere, so their partners are not told
   * they went away (they are back within a second); a page that does not come back is told of by the
   * partner's process once this one is gone (SharedRooms.remoteVanished).
   */
  drain() {
    this.draining = true;
  }

  /** Connections of this process, held ones included (diagnostics). */
  get size() {
    return this.connections.size;
  }

  close() {
    for (const v of this.vanished.values()) clearTimeout(v.timer);
    for (const h of this.store.heldRooms()) {
      const held = this.connections.get(h.socketId);
      if (held) this.release(held);
    }
  }

  // ---- internals ----

  private heldConnection(resumeKey: string): Connection | undefined {
    const h = this.store.held(resumeKey);
    const c = h && this.connections.get(h.socketId);
    return c?.away?.key === resumeKey ? c : undefined;
  }

  /**
   * Holds a dropped socket's room for RESUME_GRACE_MS; false when there is none to hold. A video
   * room's call is peer to peer: it may well have gone on without the socket, and the room's text
   * chat with it.
   */
  private hold(c: Connection, key: string): boolean {
    const roomId = c.roomId;
    const room = roomId === undefined ? undefined : this.store.room(roomId);
    if (!room) return false;
    const partnerId = partnerIn(room, c.socketId);
    const partner = this.connections.get(partnerId);
    // A partner in another process is in the room as long as the room is (it would have ended it).
    if (partner ? partner.roomId !== room.roomId : !this.deps.peers) return false;
    // An older room held for the same page (it cannot take back both) ends.
    const older = this.heldConnection(key);
    if (older) this.expire(older);
    const timer = setTimeout(() => this.expire(c), this.deps.resumeGraceMs ?? RESUME_GRACE_MS);
    timer.unref();
    c.away = { key, timer };
    this.store.hold({ key, socketId: c.socketId, roomId: room.roomId, userId: c.user.userId, sid: c.sid });
    this.events.emit('held', { roomId: room.roomId, kind: room.kind, member: memberOf(c), key });
    if (!partner?.away && !this.draining) this.deps.outbox.memberAway(partnerId, { roomId: room.roomId });
    return true;
  }

  /**
   * Moves a held room to its page's new socket, in place of that socket's fresh connection, and
   * tells the other member; undefined (nothing moved) when they are no longer in the room.
   */
  private takeBack(held: Connection, fresh: Connection): { away: boolean } | undefined {
    const room = this.store.room(held.roomId!);
    if (!room) return undefined;
    const partnerId = partnerIn(room, held.socketId);
    const partner = this.connections.get(partnerId);
    if (partner ? partner.roomId !== room.roomId : !this.deps.peers) return undefined;
    this.release(held);
    this.connections.delete(held.socketId);
    const previousSocketId = held.socketId;
    held.socketId = fresh.socketId;
    held.user = fresh.user;
    held.sid = fresh.sid;
    held.key = fresh.key;
    this.connections.set(fresh.socketId, held);
    room.members = room.members.map((id) => (id === previousSocketId ? fresh.socketId : id));
    this.store.put(room);
    this.deps.peers?.taken({ roomId: room.roomId, previousSocketId, socketId: fresh.socketId });
    if (!partner?.away) this.deps.outbox.memberBack(partnerId, { roomId: room.roomId });
    this.events.emit('resumed', {
      roomId: room.roomId,
      kind: room.kind,
      member: memberOf(held),
      previousSocketId,
      members: room.members.map((id) => (id === held.socketId ? memberOf(held) : this.memberIn(room, id))),
    });
    return { away: partner?.away !== undefined };
  }

  /** A member of a room, in this process or (scaled out) another. */
  protected memberIn(room: Room, socketId: string): RoomMember {
    const c = this.connections.get(socketId);
    return c ? memberOf(c) : { socketId, userId: room.seats?.[room.members.indexOf(socketId)]?.userId ?? '' };
  }

  protected release(c: Connection) {
    if (!c.away) return;
    clearTimeout(c.away.timer);
    if (this.store.held(c.away.key)?.socketId === c.socketId) this.store.release(c.away.key);
    c.away = undefined;
  }

  /** A held room that was not taken back in time (or cannot be any more) ends: the other member is told. */
  private expire(c: Connection) {
    if (!c.away) return;
    this.release(c);
    this.connections.delete(c.socketId);
    if (c.roomId !== undefined) this.leaveRoom(c, 'disconnected', true);
  }

  /** `c` leaves its room, which ends: every other member is out of it too, and told unless away. */
  private leaveRoom(c: Connection, reason: LeaveReason, held: boolean) {
    const roomId = c.roomId!;
    c.roomId = undefined;
    const room = this.store.room(roomId);
    if (!room) return;
    this.store.remove(roomId);
    this.events.emit('left', { roomId, kind: room.kind, member: memberOf(c), by: c.socketId, reason, held });
    this.clearVanished(roomId);
    for (const id of room.members) {
      if (id === c.socketId) continue;
      const other = this.connections.get(id);
      // A member in another process: its process tells it.
      if (!other && room.seats) this.deps.peers?.left({ roomId, socketId: id, by: c.socketId, reason });
      if (other?.roomId !== roomId) continue;
      other.roomId = undefined;
      // A held member has nothing left to take back; it stays held (in no room) until its page
      // asks, to be told that the stranger left, or until the grace ends.
      if (other.away) other.partnerLeft = roomId;
      else this.deps.outbox.memberLeft(other.socketId, { roomId, reason });
      this.events.emit('left', {
        roomId,
        kind: room.kind,
        member: memberOf(other),
        by: c.socketId,
        reason,
        held: other.away !== undefined,
      });
    }
    this.endTalk(roomId, room.kind);
  }
}

export const memberOf = (c: Connection) => ({ socketId: c.socketId, userId: c.user.userId });

/** The other member of a room of two. */
export const partnerIn = (room: Room, socketId: string) => (room.members[0] === socketId ? room.members[1]! : room.members[0]!);
