import { RESUME_GRACE_MS, type ResumeAnswer } from '@parley/contract/chat';
import type { LeaveReason } from './events.ts';
import { memberOf, partnerIn, Rooms } from './rooms.ts';
import type { Seat } from './store.ts';

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
    const room = await this.store.load(roomId);
    const i = room?.seats?.findIndex((s) => s.userId === fresh.user.userId && s.key === resumeKey) ?? -1;
    if (!room || i < 0) return { ok: false };
    const previousSocketId = room.members[i]!;
    if (previousSocketId === socketId || this.connections.has(previousSocketId) || !(await peers.gone(previousSocketId)))
      return { ok: false };
    const seat: Seat = { userId: fresh.user.userId, home: peers.home, key: resumeKey };
    // The socket may have gone or started something else while Redis answered.
    if (this.connections.get(socketId) !== fresh || fresh.roomId !== undefined || this.deps.busy?.(socketId)) return { ok: false };
    if (!(await this.store.claim(roomId, previousSocketId, socketId, seat))) return { ok: false };
    if (this.connections.get(socketId) !== fresh || fresh.roomId !== undefined) return { ok: false };
    room.members[i] = socketId;
    room.seats![i] = seat;
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

  /** Another process ended a room whose member `socketId` is here (or held here): as when its partner left here. */
  remoteLeft(roomId: string, socketId: string, by: string, reason: LeaveReason) {
    const room = this.store.room(roomId);
    // Gone everywhere (the shared record too: a side opened after the other had left would leave one seat behind).
    this.store.remove(roomId);
    this.clearVanished(roomId);
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
    for (const id of room.members) {
      const c = id === socketId ? undefined : this.connections.get(id);
      if (c?.roomId === roomId && !c.away) this.deps.outbox.memberAway(id, { roomId });
    }
  }
}
