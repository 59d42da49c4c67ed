import type { TokenUser } from '@parley/contract/auth';

/**
 * Accounts for users a test or bench makes up: what the server records of a chat (encounters,
 * rewards) refers to its users. One statement for any number, with `accountParams(users)`.
 */
export const INSERT_ACCOUNTS = `insert into users (id, username, age, gender, is_verified)
  select * from unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::bool[]) on conflict do nothing`;

export const accountParams = (users: TokenUser[]) => [
  users.map((u) => u.userId),
  users.map((u) => u.username),
  users.map((u) => u.age),
  users.map((u) => u.gender),
  users.map((u) => u.isVerified),
];
