import { createRequire } from 'node:module';

/**
 * Loads a CommonJS dependency where it is first used rather than at start: a process carries only
 * what its configuration and its traffic use (Redis, Stripe, mail, password hashing: 5–15 MB each).
 */
export const lazyRequire = createRequire(import.meta.url);
