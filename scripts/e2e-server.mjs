// The server the end-to-end specs run against: the built PWA and API on a fresh database.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
process.env.NODE_ENV ??= 'test';
process.env.LOG_LEVEL ??= 'warn';
process.env.SKIP_PWA_BUILD = 'true';
// Every spec signs its people up from this one machine's address.
process.env.SIGNUPS_PER_ADDRESS ??= '10000';
await import('./start.mjs');
