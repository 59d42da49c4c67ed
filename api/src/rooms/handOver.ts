import { z } from 'zod';
import { roomMessageCheck } from '@parley/contract/rooms';
import type { Cluster } from '../realtime/cluster.ts';
import type { Logger } from '../platform/logger.ts';
import type { SharedRooms } from './sharedRooms.ts';
import type { PairSnapshot } from './pairPolicy.ts';

/** How long a handed-over log waits in Redis for the process it was handed to (it reads it at once). */
const SNAPSHOT_KEPT_MS = 60_000;

// Written by our own processes; still parsed, as everything read back from Redis or the bus.
const snapshotSchema = z.object({
  lastId: z.number().int().min(0),
  messages: z.array(roomMessageCheck),
  reads: z.record(z.string(), z.number().int().min(0)),
  pictures: z.array(z.string()).optional(),
});
const handedSchema = z.object({ roomId: z.string().min(1), holder: z.string().min(1), handedOver: z.literal(true) });
const adoptedSchema = z.object({ roomId: z.string().min(1), to: z.string().min(1) });

/** How long a draining process waits for the one it handed a chat to to hold it, before it moves the chat's pages. */
const ADOPTED_WITHIN_MS = 3000;

/** The 1:1 chats' logs as pairPolicy.ts hands them over. */
export type PairLogs = {
  freeze(roomId: string): PairSnapshot;
  thaw(roomId: string, handed: boolean): void;
  restore(roomId: string, snapshot: PairSnapshot): void;
};

/**
 * Scaled out, a process that drains (SIGTERM) hands every 1:1 chat whose messages it holds to a
 * process that stays, at once and with its messages, rather than letting them die with it and the
 * chat wait for its heartbeat to expire. Per chat: its log is frozen (a change after the copy is
 * refused as retryable, so an acknowledged message is always in the copy), copied to Redis, the
 * holder moved in the shared record (one script: a chat taken over meanwhile stays where it is),
 * and every process told (`room:holding`, handedOver). The process it went to restores the log
 * (same ids, same client ids) before it holds the chat. Meanwhile the chat's events here and
 * there wait (`pending`) and then run where it is held.
 */
export function pairHandOver(deps: { cluster: Cluster; rooms: SharedRooms; logs: PairLogs; log: Logger }) {
  const { cluster, rooms, logs, log } = deps;
  const node = cluster.instanceId;
  const key = (roomId: string) => `${cluster.prefix}pairlog:${roomId}`;
  /** Chats moving from or to this process. */
  const moving = new Map<string, Promise<void>>();

  const track = (roomId: string, work: Promise<unknown>) => {
    const done: Promise<void> = work
      .then(
        () => undefined,
        (err: unknown) => log.error({ err, roomId }, 'chat hand-over failed'),
      )
      .finally(() => {
        if (moving.get(roomId) === done) moving.delete(roomId);
      });
    moving.set(roomId, done);
    return done;
  };

  /** Hand-overs waiting for their process to hold the chat, by room. */
  const adopting = new Map<string, () => void>();
  cluster.on('room:adopted', (d) => {
    const m = adoptedSchema.safeParse(d);
    if (m.success && m.data.to === node) adopting.get(m.data.roomId)?.();
  });

  cluster.on('room:holding', (d, from) => {
    const m = handedSchema.safeParse(d);
    if (!m.success || m.data.holder !== node) return;
    const { roomId } = m.data;
    track(
      roomId,
      (async () => {
        const raw = await cluster.redis.get(key(roomId));
        const snapshot = raw === null ? undefined : snapshotSchema.safeParse(JSON.parse(raw));
        if (snapshot && !snapshot.success) log.error({ roomId, issues: snapshot.error.issues }, 'handed-over chat log unreadable');
        await rooms.adoptHandedOver(roomId, () => {
          if (snapshot?.success) logs.restore(roomId, snapshot.data as PairSnapshot);
        });
        // Its pages may come here now: the chat is held here, with its messages.
        cluster.publish('room:adopted', { roomId, to: from });
        await cluster.redis.del(key(roomId));
      })(),
    );
  });

  async function handOne(roomId: string, to: string): Promise<boolean> {
    // Frozen and copied in one turn: whatever was kept before is in the copy, nothing is kept after.
    const snapshot = logs.freeze(roomId);
    let handed = false;
    try {
      await cluster.redis.set(key(roomId), JSON.stringify(snapshot), 'PX', SNAPSHOT_KEPT_MS);
      const adopted = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ADOPTED_WITHIN_MS);
        adopting.set(roomId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      handed = await rooms.handOver(roomId, to);
      // The chat's pages move once it is held there: a page taking it back there must find its messages.
      if (handed) await adopted;
    } finally {
      adopting.delete(roomId);
      logs.thaw(roomId, handed);
    }
    return handed;
  }

  return {
    /** The chat is moving from or to this process: its events run once this resolves. */
    pending: (roomId: string): Promise<void> | undefined => moving.get(roomId),
    /**
     * Draining: every chat held here goes to a process that stays, its other member's when it has
     * one, else one of them in turn. Chats no process can take (none stays) are kept: they end with it.
     */
    async handOverAll(): Promise<{ handed: number; kept: number }> {
      const held = rooms.heldHere();
      if (held.length === 0) return { handed: 0, kept: 0 };
      const others = (await cluster.known()).filter((id) => id !== node);
      const staying = [...(await cluster.accepting(others))].sort();
      if (staying.length === 0) return { handed: 0, kept: held.length };
      let handed = 0;
      await Promise.all(
        held.map((room, i) => {
          const to = room.otherHomes.find((h) => staying.includes(h)) ?? staying[i % staying.length]!;
          return track(
            room.roomId,
            handOne(room.roomId, to).then((ok) => {
              if (ok) handed++;
            }),
          );
        }),
      );
      return { handed, kept: held.length - handed };
    },
  };
}
