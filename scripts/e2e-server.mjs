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
// A chat of 2 s counts as "a chat of a minute" for missions, so a spec can complete a quest quickly.
process.env.MISSION_MIN_CHAT_SECONDS ??= '2';
await import('./start.mjs');
