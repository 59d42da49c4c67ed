/**
 * Before any schema is made: zod's fast path probes `new Function`, which Parley's CSP forbids, and
 * the browser reports the probe as a violation (Lighthouse's "issues") even though zod catches it.
 * `z.config({ jitless: true })` would pull zod's core into the landing page's first download; zod
 * keeps that setting on this global (shared by every copy of zod on the page), so it is set here
 * directly. zodConfig.test.ts checks that zod reads it.
 */
const root = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
// Mutated, not replaced: a zod already loaded holds on to the object it found at load.
(root.__zod_globalConfig ??= {}).jitless = true;
