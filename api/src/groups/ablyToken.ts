import { createHmac, randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { sql } from 'drizzle-orm';
import { ablyChannel, type AblyStatus } from '@parley/contract/groups';
import type { AppDeps, AuthState } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';

/** An Ably token request (Ably's wire format): the client trades it for a token with Ably. */
export type AblyTokenRequest = {
  keyName: string;
  ttl: number;
  capability: string;
  clientId: string;
  timestamp: number;
  nonce: string;
  mac: string;
};

/**
 * Ten minutes: the capability is the member's rooms when it was signed, so a kicked or banned
 * member's token must not outlive that for long; the Ably client renews it through authUrl.
 */
export const ABLY_TOKEN_TTL_MS = 10 * 60 * 1000;
export const ABLY_NOT_CONFIGURED = 'Hosted messaging is not configured on this server.';

/** Signs a token request as Ably specifies: HMAC-SHA256 of the fields, each followed by a newline. */
export function signTokenRequest(apiKey: string, fields: Omit<AblyTokenRequest, 'mac' | 'keyName'>): AblyTokenRequest {
  const colon = apiKey.indexOf(':');
  const keyName = apiKey.slice(0, colon);
  const secret = apiKey.slice(colon + 1);
  const text = [keyName, fields.ttl, fields.capability, fields.clientId, fields.timestamp, fields.nonce].join('\n') + '\n';
  return { keyName, ...fields, mac: createHmac('sha256', secret).update(text).digest('base64') };
}

/**
 * GET /api/auth/ablyclienttoken: a token request whose capability lets the user subscribe to the
 * group rooms they belong to, nothing else: they publish through the API, which validates, stores
 * and moderates. Without ABLY_API_KEY it answers 503 and socket.io carries the rooms; GET
 * /api/auth/ably says beforehand whether there is a key.
 */
export function ablyTokenRoutes(deps: AppDeps): Router {
  const router = new Router({ prefix: '/auth' });
  const limiter = deps.limiters.create({ keyPrefix: 'ably-token', points: 30, durationSeconds: 60 });
  const configured = (key: string | undefined): key is string => Boolean(key?.includes(':'));
  // Asked once before any token, so a server without a key is not asked for one on every room page.
  router.get('/ably', (ctx) => {
    const body: AblyStatus = { enabled: configured(deps.cfg.ABLY_API_KEY) };
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = body;
  });
  router.get('/ablyclienttoken', deps.requireUser, async (ctx) => {
    const key = deps.cfg.ABLY_API_KEY;
    if (!configured(key)) throw new DomainError('unavailable', ABLY_NOT_CONFIGURED, 'ably_not_configured');
    const { user } = ctx.state as AuthState;
    const taken = await limiter.take(user.userId);
    if (!taken.ok) throw new DomainError('too_many', 'Too many requests. Wait a moment and try again.', 'rate_limited', taken.retryAfterS);
    const { rows } = (await deps.db.execute(sql`
      select m.room_id from room_members m join stored_rooms r on r.id = m.room_id
      where m.user_id = ${user.userId} and r.kind = 'group' and r.closed_at is null
      and not exists (select 1 from room_bans b where b.room_id = r.id and b.user_id = m.user_id)
      order by m.room_id`)) as unknown as { rows: Array<{ room_id: string }> };
    const capability = JSON.stringify(Object.fromEntries(rows.map((r) => [ablyChannel(r.room_id), ['subscribe']])));
    const body: AblyTokenRequest = signTokenRequest(key, {
      ttl: ABLY_TOKEN_TTL_MS,
      capability,
      clientId: user.userId,
      timestamp: Date.now(),
      nonce: randomBytes(16).toString('hex'),
    });
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  });
  return router;
}
