import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import { insertAccount, tokenUserOf, type NewAccount } from '../db/accounts.ts';
import { person } from './socketClients.ts';
import { wallets } from '../db/schema.ts';
import type { TestServer } from './server.ts';

/** A signed-up account of the test server with its bearer header and fetch helpers. */
export async function member(server: TestServer, over: { premiumUser?: string; createdAt?: Date } = {}) {
  const account = await insertAccount(server.deps.db, {
    username: `m${randomUUID().slice(0, 12).replace(/-/g, '')}`,
    passwordHash: 'x',
    age: 25,
    gender: 'female',
    isVerified: true,
    ...over,
  });
  const user = tokenUserOf(account);
  const authorization = `Bearer ${await server.deps.tokens.sign(user)}`;
  const call = (method: string) => (path: string, json?: unknown) => server.api(path, { method, json, headers: { authorization } });
  return { user, userId: user.userId, post: call('POST'), put: call('PUT'), get: call('GET') };
}

/** Sets a member's gold directly: the fixture of store tests, never a path the product has. */
export async function giveGold(server: TestServer, userId: string, gold: number) {
  await server.deps.db.insert(wallets).values({ userId, gold }).onConflictDoUpdate({ target: wallets.userId, set: { gold } });
}

export async function goldOf(server: TestServer, userId: string): Promise<number> {
  const [row] = await server.deps.db.select({ gold: wallets.gold }).from(wallets).where(eq(wallets.userId, userId));
  return row?.gold ?? 0;
}

/**
 * A person with a verified account in the server's database (a user unless told), and an API
 * caller signed in as them: what tests of reports and evidence need of everyone they involve.
 */
export async function personWithAccount(
  server: TestServer,
  opts: { over?: Partial<TokenUser>; role?: 'user' | 'moderator'; account?: Partial<NewAccount> } = {},
) {
  const user = person(opts.over);
  await insertAccount(server.deps.db, {
    id: user.userId,
    username: user.username,
    passwordHash: null,
    age: user.age,
    gender: user.gender,
    isVerified: true,
    role: opts.role ?? 'user',
    // Staff work only with two-factor on (safety/routes.ts).
    ...(opts.role === 'moderator' ? { twoFactorAt: new Date() } : {}),
    ...opts.account,
  });
  const authorization = `Bearer ${await server.deps.tokens.sign(user)}`;
  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    server.api(path, { ...init, headers: { authorization, ...(init.headers as Record<string, string>) } });
  return { user, call };
}
