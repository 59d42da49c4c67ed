import { pgliteTemplate } from './pgliteTemplate.ts';

/** Vitest's global setup: the migrated PGlite template is built once, before any test process needs it. */
export default async function setup() {
  await pgliteTemplate();
}
