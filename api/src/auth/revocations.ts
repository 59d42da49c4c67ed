import { sql } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_S } from '@parley/contract/constants';
import type { Db } from '../db/client.ts';
import type { AccessSession, AccessTokens } from './tokens.ts';

/** How often each process reads the sign-ins ended and the accounts banned by any process. */
export const REVOCATIONS_POLL_MS = 1_000;
/** A row is visible only from its commit, later than the time it carries: each look reads this far back. */
const POLL_LOOKBACK_MS = 60_000;
const TTL_MS = ACCESS_TOKEN_TTL_S * 1000;

/**
 * Access tokens are checked without a database query, so one that was minted before its sign-in
 * ended (signed out, refresh token stolen) or before its account was banned would otherwise work
 * until it expires. This is the list of those: in memory, filled at once by this process and, for
 * every process, by a look at the database every REVOCATIONS_POLL_MS (like the block list), so a
 * sign-out or ban anywhere counts everywhere within a second. Entries leave once every token they
 * could refuse has expired.
 */
export function revocationList(db: Db, onError: (err: unknown) => void = () => undefined, pollMs = REVOCATIONS_POLL_MS) {
  /** sid → when its last possible token expires (ms). */
  const signIns = new Map<string, number>();
  /** userId → banned at (ms): tokens issued up to then are refused. */
  const users = new Map<string, number>();
  let lookedAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;

  const addSignIn = (sid: string, at: number) => signIns.set(sid, Math.max(signIns.get(sid) ?? 0, at + TTL_MS));
  const addUser = (userId: string, at: number) => users.set(userId, Math.max(users.get(userId) ?? 0, at));

  async function look() {
    const since = lookedAt === undefined ? Date.now() - TTL_MS : lookedAt - POLL_LOOKBACK_MS;
    const result = await db.execute<{ kind: 's' | 'u'; id: string; at_ms: number | string; now_ms: number | string }>(sql`
      select 's' as kind, family_id::text as id, extract(epoch from max(revoked_at)) * 1000 as at_ms,
             extract(epoch from now()) * 1000 as now_ms
        from refresh_tokens where revoked_at > to_timestamp(${since / 1000}) group by family_id
      union all
      select 'u', id::text, extract(epoch from banned_at) * 1000, extract(epoch from now()) * 1000
        from users where banned_at > to_timestamp(${since / 1000})
      union all
      select 'n', '', 0, extract(epoch from now()) * 1000`);
    let now = Date.now();
    for (const r of result.rows) {
      if (r.kind === 's') addSignIn(r.id, Number(r.at_ms));
      else if (r.kind === 'u') addUser(r.id, Number(r.at_ms));
      else now = Number(r.now_ms);
    }
    lookedAt = now;
    for (const [sid, until] of signIns) if (until <= Date.now()) signIns.delete(sid);
    for (const [id, at] of users) if (at + TTL_MS <= Date.now()) users.delete(id);
  }

  const lookNow = () => (looking ??= look().finally(() => (looking = undefined)));

  return {
    /** Reads what was revoked in the last token lifetime, then keeps looking. */
    async start() {
      await lookNow();
      timer = setInterval(() => void lookNow().catch(onError), pollMs);
      timer.unref();
    },
    /** This process ended a sign-in: its tokens stop working here at once (elsewhere at the next look). */
    revokeSignIn(sid: string) {
      addSignIn(sid, Date.now());
    },
    /** This process banned (or found banned) an account: every token issued so far stops working. */
    revokeUser(userId: string, at = Date.now()) {
      addUser(userId, at);
    },
    isRevoked(session: AccessSession): boolean {
      if (session.sid !== undefined && signIns.has(session.sid)) return true;
      const bannedAt = users.get(session.user.userId);
      return bannedAt !== undefined && session.issuedAt * 1000 <= bannedAt;
    },
    /** For tests: look at the database now. */
    look: lookNow,
    close() {
      clearInterval(timer);
    },
  };
}

export type Revocations = ReturnType<typeof revocationList>;

/** Access tokens that refuse a revoked one, wherever a token is verified (REST and socket handshakes). */
export function revocableTokens(tokens: AccessTokens, revocations: Pick<Revocations, 'isRevoked'>): AccessTokens {
  const verifySession: AccessTokens['verifySession'] = async (token) => {
    const session = await tokens.verifySession(token);
    return session && !revocations.isRevoked(session) ? session : null;
  };
  return {
    sign: (user, sid) => tokens.sign(user, sid),
    verifySession,
    verify: async (token) => (await verifySession(token))?.user ?? null,
  };
}
