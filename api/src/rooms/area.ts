import type { AppDeps } from '../deps.ts';
import { messageRateLimit } from '../realtime/eventRateLimit.ts';
import { messageReceipts } from '../platform/receipts.ts';
import { Rooms, type RoomsDeps } from './rooms.ts';
import { linkSpamGuard } from './linkSpam.ts';
import { attachRoomSockets, socketOutbox } from './socket.ts';
import { redisRooms } from './redisStore.ts';
import { clusterPeers, followCluster } from './cluster.ts';
import { SharedRooms } from './sharedRooms.ts';
import { pairChats } from './pairPolicy.ts';
import { pairRelay } from './pairRelay.ts';
import { pairHandOver } from './handOver.ts';
import type { RoomCore } from './core.ts';
import type { RoomOps } from './storedSocket.ts';
import { refusalsCounted } from '../platform/metrics.ts';

/** What rooms ask of the areas around them; server.ts wires it. */
export type RoomHooks = Pick<RoomsDeps, 'busy' | 'callAttempt'>;

/**
 * The 1:1 rooms as server.ts composes them, on the realtime server it hands in. Built before the
 * areas that follow rooms (chat, rtc, people…): its sockets' events are registered first, so a drop
 * holds the room before they hear it, and they subscribe to the Rooms it returns.
 */
export function createRooms(deps: AppDeps, hooks: RoomHooks & { chat(): { rooms: RoomCore; ops: RoomOps } }) {
  const { realtime, cluster } = deps;
  const messages = refusalsCounted('chat-messages', messageRateLimit());
  const receipts = messageReceipts(deps.secrets.jwtSecret);
  const links = linkSpamGuard();
  const onError = (err: unknown) => deps.log.error({ err }, 'shared rooms step failed');
  const roomsDeps: RoomsDeps = {
    outbox: socketOutbox(realtime.io),
    busy: hooks.busy,
    callAttempt: hooks.callAttempt,
  };
  let unfollow: (() => void) | undefined;
  let rooms: Rooms;
  // Scaled out: rooms and held rooms shared in Redis, a room's two members possibly in two processes.
  if (cluster) {
    const shared = new SharedRooms({
      ...roomsDeps,
      store: redisRooms(cluster.redis, cluster.prefix, cluster.instanceId, onError),
      peers: clusterPeers(cluster, realtime.io),
    });
    unfollow = followCluster(cluster, shared, onError);
    rooms = shared;
  } else rooms = new Rooms(roomsDeps);
  realtime.onEnded((ended) => rooms.endHeld(ended));
  // Scaled out, every process (this one too) hears it on the bus and ends its own sockets' rooms.
  cluster?.on('room:endBetween', (d) => {
    const e = d as { userId?: unknown; otherId?: unknown } | null;
    if (typeof e?.userId === 'string' && typeof e.otherId === 'string') rooms.endBetween(e.userId, e.otherId);
  });
  attachRoomSockets(realtime.io, rooms, deps.log);
  // The chats' messages run on the room core, as a policy of held, signed messages.
  const pair = pairChats({
    rooms,
    core: () => hooks.chat().rooms,
    sign: receipts.sign,
    allowMessage: (userId) => messages.take(userId),
    allowLinks: links.allow,
  });
  const handOver =
    cluster && rooms instanceof SharedRooms ? pairHandOver({ cluster, rooms, logs: pair.handOver, log: deps.log }) : undefined;
  const relay = cluster && pairRelay({ cluster, rooms, ops: () => hooks.chat().ops, log: deps.log, handOver });
  return {
    /** The rooms, and their events for the areas that follow them. */
    rooms,
    /** The 1:1 kinds' policies for the room core, and (scaled out) where a chat another process holds runs. */
    chat: {
      policies: pair.policies,
      elsewhere: relay,
    },
    /** `userId` reported or blocked `otherId`: their 1:1 rooms together end now, in every process. */
    endBetween(userId: string, otherId: string) {
      if (cluster) cluster.publish('room:endBetween', { userId, otherId });
      else rooms.endBetween(userId, otherId);
    },
    /**
     * The process drains: its pages' partners are not told they went (they are back in a moment),
     * and (scaled out) the chats it holds go to processes that stay, with their messages.
     */
    async drain(): Promise<{ handed: number; kept: number }> {
      rooms.drain();
      return (await handOver?.handOverAll()) ?? { handed: 0, kept: 0 };
    },
    close() {
      messages.close();
      unfollow?.();
      relay?.close();
      rooms.close();
    },
  };
}
