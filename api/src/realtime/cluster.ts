import { randomUUID } from 'node:crypto';
import { closeRedis, type Redis } from '../platform/redis.ts';

/**
 * What the API processes sharing one Redis (scaled out) know of each other: this process's id and
 * heartbeat, which others are alive, and one ordered channel (the bus) for what must reach the
 * process holding a socket: a match, a room's member leaving, a held room taken back elsewhere.
 *
 * One channel, not socket.io's serverSideEmit, because its order matters: a subscriber receives
 * messages in the order Redis took them, so a room's end published after its match (even by another
 * process) arrives after it.
 */
export type Cluster = {
  readonly instanceId: string;
  readonly prefix: string;
  readonly redis: Redis;
  /** The bus channel (the matchmaker's script publishes on it directly). */
  readonly channel: string;
  publish(type: string, data: unknown): void;
  on(type: string, listener: (data: unknown, from: string) => void): void;
  /** Which of these instances have a live heartbeat. */
  alive(instanceIds: string[]): Promise<Set<string>>;
  /** Every instance that ever registered and was not reaped yet. */
  known(): Promise<string[]>;
  /** This process is draining (SIGTERM): the others hand it nothing more (`accepting`). */
  drain(): Promise<void>;
  /** Which of these instances are alive and not draining: where work may be handed. */
  accepting(instanceIds: string[]): Promise<Set<string>>;
  /** Forgets a dead instance once (true for the one process that should clean up after it). */
  claimReap(instanceId: string): Promise<boolean>;
  close(): Promise<void>;
};

/** A heartbeat every second, expiring after three: a process killed outright is dead within 3 s. */
export const HEARTBEAT_MS = 1000;
export const HEARTBEAT_TTL_MS = 3000;

export type BusMessage = { t: string; d: unknown; f: string };

export async function createCluster(redis: Redis, prefix: string, onError: (err: unknown) => void): Promise<Cluster> {
  const instanceId = randomUUID();
  const channel = `${prefix}bus`;
  const aliveKey = (id: string) => `${prefix}inst:${id}`;
  const instancesKey = `${prefix}insts`;
  const drainingKey = (id: string) => `${prefix}draining:${id}`;
  const sub = redis.duplicate();
  const listeners = new Map<string, Array<(data: unknown, from: string) => void>>();
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    let m: BusMessage;
    try {
      m = JSON.parse(raw) as BusMessage;
    } catch (err) {
      return onError(err);
    }
    for (const l of listeners.get(m.t) ?? []) {
      try {
        l(m.d, m.f);
      } catch (err) {
        onError(err);
      }
    }
  });
  await sub.subscribe(channel);
  const beat = () => redis.multi().set(aliveKey(instanceId), '1', 'PX', HEARTBEAT_TTL_MS).sadd(instancesKey, instanceId).exec();
  await beat();
  const timer = setInterval(() => void beat().catch(onError), HEARTBEAT_MS);
  timer.unref();

  return {
    instanceId,
    prefix,
    redis,
    channel,
    publish(type, data) {
      const m: BusMessage = { t: type, d: data, f: instanceId };
      redis.publish(channel, JSON.stringify(m)).catch(onError);
    },
    on(type, listener) {
      const list = listeners.get(type) ?? [];
      list.push(listener);
      listeners.set(type, list);
    },
    async alive(ids) {
      if (ids.length === 0) return new Set();
      const values = await redis.mget(ids.map(aliveKey));
      return new Set(ids.filter((_, i) => values[i] !== null));
    },
    known: () => redis.smembers(instancesKey),
    async drain() {
      // Outlives the process by far less than an instance id is ever reused (never: they are random).
      await redis.set(drainingKey(instanceId), '1', 'PX', 10 * 60_000);
    },
    async accepting(ids) {
      if (ids.length === 0) return new Set();
      const [alive, draining] = await Promise.all([redis.mget(ids.map(aliveKey)), redis.mget(ids.map(drainingKey))]);
      return new Set(ids.filter((_, i) => alive[i] !== null && draining[i] === null));
    },
    async claimReap(id) {
      const claimed = await redis.set(`${prefix}reap:${id}`, instanceId, 'PX', 60_000, 'NX');
      if (claimed !== 'OK') return false;
      await redis.srem(instancesKey, id);
      return true;
    },
    async close() {
      clearInterval(timer);
      // A process that stops on purpose is gone at once, not after its heartbeat expires.
      await redis.del(aliveKey(instanceId)).catch(onError);
      await closeRedis(sub);
    },
  };
}
