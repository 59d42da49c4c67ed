/**
 * `npm run bench:people`: the people area's timing goals on this machine.
 * - push: 1000 notifications (one per user and device) through the Notifier to a local Web Push
 *   service that decrypts them: notify() → push received p99 < 500 ms, server CPU per push.
 * - avatar: a 4000×3000 JPEG to both avatar sizes (256 and 64 px WebP): p50 < 300 ms.
 * Writes bench/results/people.json and prints one summary line.
 *
 * Options: --parts=push,avatar  --pushes=1000  --rate=50 (notifications a second)  --avatar-runs=30
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './lib/options.ts';
import { benchAvatar } from './people/avatar.ts';
import { benchPush } from './people/push.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const parts = new Set(option('parts', 'push,avatar').split(','));
// Other work on the machine shows here: figures taken under load are not this code's.
const result: Record<string, unknown> = { at: new Date().toISOString(), loadAverageAtStart: os.loadavg() };

if (parts.has('push')) result.push = await benchPush(Number(option('pushes', '1000')), Number(option('rate', '50')));
if (parts.has('avatar')) result.avatar = await benchAvatar(Number(option('avatar-runs', '30')));

await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
await writeFile(path.join(repoRoot, 'bench/results/people.json'), `${JSON.stringify(result, null, 2)}\n`);
const push = result.push as Awaited<ReturnType<typeof benchPush>> | undefined;
const avatar = result.avatar as Awaited<ReturnType<typeof benchAvatar>> | undefined;
console.log(
  [
    push &&
      `push p50/p99 ${push.eventToPushMs.p50}/${push.eventToPushMs.p99} ms (goal p99 < 500), ${push.received}/${push.notifications} received, server CPU ${push.serverCpuMsPerPush} ms/push`,
    avatar && `avatar 4000×3000 → 256+64 p50 ${avatar.ms.p50} ms (goal < 300), p99 ${avatar.ms.p99} ms`,
  ]
    .filter(Boolean)
    .join(' · '),
);
process.exit(0);
