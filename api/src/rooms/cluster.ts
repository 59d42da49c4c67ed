import { PARTNER_LEFT_REASONS } from '@parley/contract/matchmaking';
import type { LeaveReason } from './events.ts';
import type { AppIo } from '../realtime/server.ts';
import type { Cluster } from '../realtime/cluster.ts';
import type { RoomPeers } from './rooms.ts';
import type { SharedRooms } from './sharedRooms.ts';

type Left = { roomId: string; socketId: string; by: string; reason: LeaveReason };
type Taken = { roomId: string; previousSocketId: string; socketId: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const REASONS: readonly string[] = PARTNER_LEFT_REASONS;

/** The rooms' peers over the cluster bus (realtime/cluster.ts), and whether a socket lives anywhere (the adapter). */
export function clusterPeers(cluster: Cluster, io: AppIo): RoomPeers {
  return {
    home: cluster.instanceId,
    left: (e) => cluster.publish('room:left', e),
    taken: (e) => cluster.publish('room:taken', e),
    alive: (instanceIds) => cluster.alive(instanceIds),
    holding: (e) => cluster.publish('room:holding', e),
    async gone(socketId) {
      // Every live process answers through the adapter; a killed one has left Redis already.
      const found = await io.in(socketId).fetchSockets();
      return found.length === 0;
    },
  };
}

/** How often the processes of members in other processes are checked (their heartbeat expires in 3 s). */
const WATCH_MS = 1000;

/**
 * Follows the other processes for this process's rooms: a member's leaving or a page taken back
 * there (from the bus), and a process that died with its sockets (its heartbeat expired).
 */
export function followCluster(cluster: Cluster, rooms: SharedRooms, onError: (err: unknown) => void) {
  cluster.on('room:left', (d) => {
    const e = d as Partial<Left> | null;
    if (isString(e?.roomId) && isString(e.socketId) && isString(e.by) && isString(e.reason) && REASONS.includes(e.reason))
      rooms.remoteLeft(e.roomId, e.socketId, e.by, e.reason as LeaveReason);
  });
  cluster.on('room:taken', (d) => {
    const e = d as Partial<Taken> | null;
    if (isString(e?.roomId) && isString(e.previousSocketId) && isString(e.socketId))
      rooms.remoteTaken(e.roomId, e.previousSocketId, e.socketId);
  });
  cluster.on('room:holding', (d, from) => {
    const e = d as { roomId?: unknown; holder?: unknown; handedOver?: unknown } | null;
    // Handed to this process, the room is held here once its log is in place (rooms/handOver.ts).
    if (e?.handedOver === true && e.holder === cluster.instanceId) return;
    if (from !== cluster.instanceId && isString(e?.roomId) && isString(e.holder)) rooms.remoteHolding(e.roomId, e.holder);
  });
  const watch = setInterval(() => {
    const remote = rooms.remoteMembers();
    if (remote.length === 0) return;
    cluster
      .alive([...new Set(remote.map((r) => r.home))])
      .then((alive) => {
        for (const r of remote) if (!alive.has(r.home)) rooms.remoteVanished(r.roomId, r.socketId);
      })
      .catch(onError);
  }, WATCH_MS);
  watch.unref();
  return () => clearInterval(watch);
}
