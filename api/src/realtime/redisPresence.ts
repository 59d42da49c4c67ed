import type { OnlineUser } from '@parley/contract/presence';
import type { Cluster } from './cluster.ts';
import type { Presence } from './presence.ts';

/**
 * Who is online across every API process (REDIS_URL). Each process records its own sockets in a
 * hash of its own (socket → user); a user's sockets are counted in one shared hash (user → number
 * of sockets, every tab and device of every process), so the online count is that hash's length
 * and a user with three tabs on two processes counts once. Each step is one script: atomic, O(1)
 * (O(log online) for the sorted set of userIds, all scored 0, that pages walk by ZRANGEBYLEX).
 *
 * A process that dies leaves its sockets behind; its heartbeat expires (realtime/cluster.ts) and
 * the first process to notice takes them away in one script (`reap`), reporting who went offline.
 */
export type ClusterPresence = Presence & {
  /** Takes away the sockets of instances whose heartbeat expired: the users who went offline with them. */
  reap(): Promise<string[]>;
};

const JOIN = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local n = redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
if n == 1 then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  redis.call('ZADD', KEYS[4], 0, ARGV[2])
  return 1
end
return 0
`;

const LEAVE = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
local n = redis.call('HINCRBY', KEYS[2], ARGV[2], -1)
if n <= 0 then
  redis.call('HDEL', KEYS[2], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
  redis.call('ZREM', KEYS[4], ARGV[2])
  return 1
end
return 0
`;

/** Every socket of a dead instance leaves at once; returns the users that had no other socket. */
const REAP = `
local sockets = redis.call('HGETALL', KEYS[1])
local offline = {}
for i = 1, #sockets, 2 do
  local user = sockets[i + 1]
  local n = redis.call('HINCRBY', KEYS[2], user, -1)
  if n <= 0 then
    redis.call('HDEL', KEYS[2], user)
    redis.call('HDEL', KEYS[3], user)
    redis.call('ZREM', KEYS[4], user)
    offline[#offline + 1] = user
  end
end
redis.call('DEL', KEYS[1])
return offline
`;

export function redisPresence(cluster: Cluster): ClusterPresence {
  const { redis, prefix, instanceId } = cluster;
  const socketsOf = (instance: string) => `${prefix}pr:sockets:${instance}`;
  const counts = `${prefix}pr:users`;
  const profiles = `${prefix}pr:profiles`;
  const order = `${prefix}pr:order`;
  const parse = (raws: Array<string | null>) => raws.flatMap((raw) => (raw === null ? [] : [JSON.parse(raw) as OnlineUser]));
  return {
    async join(socketId, user) {
      return (await redis.eval(JOIN, 4, socketsOf(instanceId), counts, profiles, order, socketId, user.userId, JSON.stringify(user))) === 1;
    },
    async leave(socketId, userId) {
      return (await redis.eval(LEAVE, 4, socketsOf(instanceId), counts, profiles, order, socketId, userId)) === 1;
    },
    async page(after, limit) {
      const ids = await redis.zrangebylex(order, after === null ? '-' : `(${after}`, '+', 'LIMIT', 0, limit);
      return ids.length === 0 ? [] : parse(await redis.hmget(profiles, ...ids));
    },
    async online(userIds) {
      return userIds.length === 0 ? [] : parse(await redis.hmget(profiles, ...userIds));
    },
    count: () => redis.hlen(counts),
    async isOnline(userId) {
      return (await redis.hexists(counts, userId)) === 1;
    },
    async reap() {
      const known = await cluster.known();
      const alive = await cluster.alive(known);
      const offline: string[] = [];
      for (const id of known) {
        if (alive.has(id) || id === instanceId || !(await cluster.claimReap(id))) continue;
        offline.push(...((await redis.eval(REAP, 4, socketsOf(id), counts, profiles, order)) as string[]));
      }
      return offline;
    },
  };
}
