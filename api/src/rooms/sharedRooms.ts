import { RESUME_GRACE_MS, type ResumeAnswer } from '@parley/contract/matchmaking';
import type { LeaveReason } from './events.ts';
import { memberOf, partnerIn, Rooms } from './rooms.ts';
import type { Room, Seat } from './store.ts';

/** How long, and how often, a page taking its room back looks again for its old socket to be gone. */
const GONE_WITHIN_MS = 4000;
const GONE_CHECK_MS = 200;

/**
 * Rooms of a deployment of several API processes (REDIS_URL): a room's two members may be in two
 * processes, and a page may take its room back in another process than the one that held it (or
 * that died). rooms/cluster.ts calls these from the cluster bus and its watch of the processes.
 */
export class SharedRooms extends Rooms {
  /**
   * The page is back on a socket of this process, but its room was held (or its socket lived) in
   * another one: it takes the room back when the shared record still seats this page there and
   * that socket is connected nowhere any more (dropped, or its process died).
   */
  async resumeElsewhere(socketId: string, resumeKey: string, roomId: string): Promise<ResumeAnswer> {
    const peers = this.deps.peers;
    const fresh = this.connections.get(socketId);
    if (!peers || !fresh || fresh.roomId !== undefined || this.deps.busy?.(socketId)) return { ok: false };
    let room = await this.store.load(roomId);
    const i = room?.seats?.findIndex((s) => s.userId === fresh.user.userId && s.key === resumeKey) ?? -1;
    if (!room || i < 0) return { ok: false };
    const previousSocketId = room.members[i]!;
    if (previousSocketId === socketId || this.connections.has(previousSocketId) || !(await this.goneSoon(previousSocketId)))
      return { ok: false };
    const seat: Seat = { userId: fresh.user.userId, home: peers.home, key: resumeKey };
    // The socket may have gone or started something else while Redis answered.
    if (this.connections.get(socketId) !== fresh || fresh.roomId !== undefined || this.deps.busy?.(socketId)) return { ok: false };
    if (!(await this.store.claim(roomId, previousSocketId, socketId, seat))) return { ok: false };
    if (this.connections.get(socketId) !== fresh || fresh.roomId !== undefined) return { ok: false };
    // This process's copy, when it has one, is updated rather than replaced by the record read
    // before: it knows of a takeover since, and of the other page taking its seat back here
    // meanwhile (both pages of a replica that drains arrive at once).
    const local = this.store.room(roomId);
    const j = local?.members.indexOf(previousSocketId) ?? -1;
    if (local && j >= 0 && local.seats) {
      local.members[j] = socketId;
      local.seats[j] = seat;
      room = local;
    } else {
      room.members[i] = socketId;
      room.seats![i] = seat;
      if (local?.holder !== undefined) room.holder = local.holder;
    }
    fresh.roomId = roomId;
    this.store.put(room);
    peers.taken({ roomId, previousSocketId, socketId });
    const partnerId = partnerIn(room, socketId);
    const partner = this.connections.get(partnerId);
    if (!partner?.away) this.deps.outbox.memberBack(partnerId, { roomId });
    this.events.emit('resumed', {
      roomId,
      kind: room.kind,
      member: memberOf(fresh),
      previousSocketId,
      members: room.members.map((id) => this.memberIn(room, id)),
    });
    const attempt = this.deps.callAttempt?.(roomId) ?? 0;
    const partnerAway = partner?.away !== undefined;
    return attempt > 0 ? { ok: true, partnerAway, callAttempt: attempt } : { ok: true, partnerAway };
  }

  /**
   * The page's old socket is connected nowhere, or will be in a moment: its page's new handshake
   * asked its process to close it (realtime/server.ts), and a busy process (one that drains) may
   * answer that after the page already asks for its room here.
   */
  private async goneSoon(socketId: string): Promise<boolean> {
    const until = Date.now() + GONE_WITHIN_MS;
    for (;;) {
      // No answer (a process exiting as it was asked): asked again.
      if (await this.deps.peers!.gone(socketId).catch(() => false)) return true;
      if (Date.now() >= until) return false;
      await new Promise((r) => setTimeout(r, GONE_CHECK_MS));
    }
  }

  /** Another process ended a room whose member `socketId` is here (or held here): as when its partner left here. */
  remoteLeft(roomId: string, socketId: string, by: string, reason: LeaveReason) {
    const room = this.store.room(roomId);
    // Gone everywhere (the shared record too: a side opened after the other had left would leave one seat behind).
    this.store.remove(roomId);
    this.clearVanished(roomId);
    // A room handed here without a member of it here: nobody else tells its log it ended.
    if (room && this.adopted.delete(roomId))
      this.events.emit('left', { roomId, kind: room.kind, member: { socketId, userId: '' }, by, reason, held: false });
    const c = this.connections.get(socketId);
    if (!room || c?.roomId !== roomId) return;
    c.roomId = undefined;
    if (c.away) c.partnerLeft = roomId;
    else this.deps.outbox.memberLeft(c.socketId, { roomId, reason });
    this.events.emit('left', { roomId, kind: room.kind, member: memberOf(c), by, reason, held: c.away !== undefined });
    this.endTalk(roomId, room.kind);
  }

  /** A page took a room back in another process: this process's copy follows, and a socket held here for it is forgotten. */
  remoteTaken(roomId: string, previousSocketId: string, socketId: string) {
    this.clearVanished(roomId);
    const held = this.connections.get(previousSocketId);
    if (held?.away && held.roomId === roomId) {
      this.release(held);
      this.connections.delete(previousSocketId);
      held.roomId = undefined;
      const kind = this.store.room(roomId)?.kind;
      if (kind) this.events.emit('left', { roomId, kind, member: memberOf(held), by: socketId, reason: 'disconnected', held: true });
    }
    const room = this.store.room(roomId);
    if (!room) return;
    const i = room.members.indexOf(previousSocketId);
    if (i >= 0) room.members[i] = socketId;
  }

  /**
   * The process holding the room's messages died (its heartbeat is gone): this process takes them
   * over, unless another one did first. Its messages died with it; the room's log starts again
   * here, under ids above any it gave (the `holding` event). Answers the holder as it is now,
   * undefined when the room is gone. Only once that process is known dead: a live holder keeps them.
   */
  takeOver(roomId: string): Promise<string | undefined> {
    // Asked by several events at once, it is done once.
    let taking = this.takingOver.get(roomId);
    if (!taking) {
      taking = this.tryTakeOver(roomId).finally(() => this.takingOver.delete(roomId));
      this.takingOver.set(roomId, taking);
    }
    return taking;
  }

  private readonly takingOver = new Map<string, Promise<string | undefined>>();

  private async tryTakeOver(roomId: string): Promise<string | undefined> {
    const peers = this.deps.peers;
    const dead = this.store.room(roomId)?.holder;
    if (!peers || dead === undefined || dead === peers.home) return dead;
    if ((await peers.alive([dead])).has(dead)) return dead;
    const holder = await this.store.takeHolding(roomId, dead, peers.home);
    const room = this.store.room(roomId);
    if (holder === undefined || !room) return undefined;
    room.holder = holder;
    if (holder === peers.home) {
      this.events.emit('holding', { roomId, kind: room.kind });
      peers.holding({ roomId, holder });
    }
    return holder;
  }

  /** Rooms whose messages this process holds: what it hands over as it drains. */
  heldHere(): Array<{ roomId: string; kind: Room['kind']; otherHomes: string[] }> {
    const home = this.deps.peers?.home;
    const out = new Map<string, { roomId: string; kind: Room['kind']; otherHomes: string[] }>();
    const ids = [...[...this.connections.values()].map((c) => c.roomId), ...this.adopted];
    for (const roomId of ids) {
      const room = roomId === undefined ? undefined : this.store.room(roomId);
      if (!room || room.holder !== home || out.has(room.roomId)) continue;
      const otherHomes = [...new Set((room.seats ?? []).map((s) => s.home).filter((h) => h !== home))];
      out.set(room.roomId, { roomId: room.roomId, kind: room.kind, otherHomes });
    }
    return [...out.values()];
  }

  /** Rooms handed to this process without a member of theirs here (yet). */
  private readonly adopted = new Set<string>();

  /**
   * Draining: `to` holds the room's messages from now on (its log is where `to` reads it). True
   * when it does; false when the room ended or another process holds it meanwhile.
   */
  async handOver(roomId: string, to: string): Promise<boolean> {
    const peers = this.deps.peers;
    if (!peers) return false;
    const holder = await this.store.takeHolding(roomId, peers.home, to);
    const room = this.store.room(roomId);
    if (room && holder !== undefined) room.holder = holder;
    if (holder !== to) return false;
    this.adopted.delete(roomId);
    peers.holding({ roomId, holder: to, handedOver: true });
    return true;
  }

  /**
   * A process that drains handed this one the room's messages (`restore` puts its log in place
   * first): held here from now on. This process may have no member of the room yet (both pages are
   * on their way here, or to a third): its copy is then read from the shared record. False when the
   * room is gone.
   */
  async adoptHandedOver(roomId: string, restore: () => void): Promise<boolean> {
    const home = this.deps.peers?.home;
    let room = this.store.room(roomId);
    if (!room) {
      const shared = await this.store.load(roomId);
      // Read while its pages moved: a copy of this process's own may have appeared meanwhile.
      room = this.store.room(roomId) ?? shared;
      if (!room) return false;
      if (!this.store.room(roomId)) {
        this.store.put(room);
        this.adopted.add(roomId);
      }
    }
    restore();
    room.holder = home;
    this.events.emit('holding', { roomId, kind: room.kind, handedOver: true });
    return true;
  }

  /** Another process holds the room's messages from now on (or this one, having taken them over). */
  remoteHolding(roomId: string, holder: string) {
    const room = this.store.room(roomId);
    if (!room || room.holder === holder) return;
    room.holder = holder;
    if (holder === this.deps.peers?.home) this.events.emit('holding', { roomId, kind: room.kind });
  }

  /** Members in other processes of rooms with a member here (to watch whether their processes live). */
  remoteMembers(): Array<{ roomId: string; socketId: string; home: string }> {
    const out: Array<{ roomId: string; socketId: string; home: string }> = [];
    const seen = new Set<string>();
    for (const c of this.connections.values()) {
      const room = c.roomId === undefined ? undefined : this.store.room(c.roomId);
      if (!room?.seats || seen.has(room.roomId)) continue;
      seen.add(room.roomId);
      room.members.forEach((id, i) => {
        const seat = room.seats![i]!;
        if (seat.home !== this.deps.peers?.home) out.push({ roomId: room.roomId, socketId: id, home: seat.home });
      });
    }
    return out;
  }

  /**
   * The process of a room's other member died with its socket: the member here is told its partner
   * is away, and the room ends after the grace unless that page takes it back in another process.
   */
  remoteVanished(roomId: string, socketId: string) {
    if (this.vanished.has(roomId)) return;
    const room = this.store.room(roomId);
    if (!room?.members.includes(socketId)) return;
    const timer = setTimeout(() => {
      this.vanished.delete(roomId);
      const still = this.store.room(roomId);
      if (!still?.members.includes(socketId)) return;
      for (const id of still.members) if (id !== socketId) this.remoteLeft(roomId, id, socketId, 'disconnected');
    }, this.deps.resumeGraceMs ?? RESUME_GRACE_MS);
    timer.unref();
    this.vanished.set(roomId, { socketId, timer });
    // Its process held the room's messages: they are held here from now on, for the member here and its partner's page when back.
    if (room.seats?.[room.members.indexOf(socketId)]?.home === room.holder) void this.takeOver(roomId).catch(() => undefined);
    for (const id of room.members) {
      const c = id === socketId ? undefined : this.connections.get(id);
      if (c?.roomId === roomId && !c.away) this.deps.outbox.memberAway(id, { roomId });
    }
  }
}
