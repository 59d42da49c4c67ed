import type { Context, Next } from 'koa';
import type { TokenUser } from '@parley/contract/auth';
import { unauthorized } from '../platform/errors.ts';
import type { AccessTokens } from './tokens.ts';

/** `sid`: the sign-in the access token belongs to, for tokens minted again from it. */
export type AuthState = { user: TokenUser; sid: string | undefined };

export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header ?? '');
  return m?.[1] ?? null;
}

/** Protected routes: a missing, malformed or expired Bearer token answers 401 `Unauthorized`. */
export function requireUser(tokens: AccessTokens) {
  return async (ctx: Context, next: Next) => {
    const session = await tokens.verifySession(bearerToken(ctx.get('authorization')));
    if (!session) throw unauthorized();
    (ctx.state as AuthState).user = session.user;
    (ctx.state as AuthState).sid = session.sid;
    await next();
  };
}
