// The Node flags the server runs with, read from `npm start` (package.json's scripts.start,
// `node <flags> scripts/start.mjs`), so that the Dockerfile's test, the benches and the start-up
// test run the server exactly as `npm start` does, from one place.
//
// Why `--v8-pool-size=1`: V8's helper threads (concurrent marking, parallel scavenges) default to
// four whatever the machine. On two cores they pre-empt the event loop during every old-generation
// collection: the chat bench's message round trip p99 was 12–27 ms with four, 7.5 with two and
// 4.5–6.6 with one, and peak RSS 270–284 / 254–260 / 236–248 MB (bench/README.md). The event loop
// and one helper fit two cores; more cores are used by more processes (see README, Scaling out).
//
// Why `--heap-growing-percent=30`: V8 lets the old generation grow to up to four times what its last
// full collection kept before it collects again; the chat bench's peak RSS on the embedded database
// moved 348–439 MB with that room and held at 307–308 MB with 1.3×, at the same CPU (bench/HISTORY.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** @param {string} root the repository root @returns {string[]} */
export function startNodeFlags(root) {
  const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const m = /^node((?:\s+--\S+)*)\s+scripts\/start\.mjs$/.exec(scripts.start.trim());
  if (!m) throw new Error(`package.json scripts.start is not "node [--flags] scripts/start.mjs": ${scripts.start}`);
  return m[1].split(/\s+/).filter(Boolean);
}
