/**
 * The peer tickets that have registered a peer already: a ticket is good for one registration.
 * Entries live until the ticket expires (after that its signature check refuses it anyway).
 */
export type UsedTickets = {
  /** True the first time `ticketId` is claimed, false for every later claim until `expiresAtMs`. */
  claim(ticketId: string, expiresAtMs: number): Promise<boolean>;
};

/** The one Redis command the store needs (ioredis's client fits). */
export type TicketRedis = {
  set(key: string, value: string, px: 'PX', ms: number, nx: 'NX'): Promise<'OK' | null>;
};

/** How often the in-memory store drops expired entries. */
const SWEEP_MS = 30_000;

/** One process: a map of ticket id to expiry, swept of expired entries as claims come in. */
export function memoryUsedTickets(now: () => number = Date.now): UsedTickets & { size(): number } {
  const used = new Map<string, number>();
  let lastSweep = now();
  return {
    size: () => used.size,
    claim(ticketId, expiresAtMs) {
      const t = now();
      if (t - lastSweep >= SWEEP_MS) {
        lastSweep = t;
        for (const [id, exp] of used) if (exp <= t) used.delete(id);
      }
      const exp = used.get(ticketId);
      if (exp !== undefined && exp > t) return Promise.resolve(false);
      used.set(ticketId, expiresAtMs);
      return Promise.resolve(true);
    },
  };
}

/** Several processes: SET NX is atomic, so one ticket registers once across all of them. */
export function redisUsedTickets(redis: TicketRedis, keyPrefix = ''): UsedTickets {
  return {
    async claim(ticketId, expiresAtMs) {
      const ms = Math.max(1, Math.ceil(expiresAtMs - Date.now()));
      return (await redis.set(`${keyPrefix}peer-ticket:${ticketId}`, '1', 'PX', ms, 'NX')) === 'OK';
    },
  };
}
