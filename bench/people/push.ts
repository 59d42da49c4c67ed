import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { PushSubscriptionBody } from '@parley/contract/notifications';
import { pushSubscriptions, users } from '../../api/src/db/schema.ts';
import { startTestServer } from '../../api/src/testing/server.ts';
import { said } from '../../api/src/testing/words.ts';
import { machineCpu, type MachineCpu } from '../lib/machineCpu.ts';
import { sharedNow, summarize, type Summary } from '../lib/stats.ts';

export type PushResult = {
  notifications: number;
  ratePerS: number;
  received: number;
  lost: number;
  eventToPushMs: Summary;
  goalP99Ms: number;
  met: boolean;
  serverCpuMsPerPush: number;
  machine: MachineCpu | undefined;
};

type FromService = { ready?: true; subscriptions?: PushSubscriptionBody[]; ca?: string; host?: string; received?: number };

/**
 * `count` users with one device each; one notification each at `ratePerS` through the Notifier
 * (settings read, stored, shown live, encrypted and sent), received and decrypted by the local
 * push service in its own process. Latency: notify() called → push decrypted by the service.
 * Server CPU per push: this process's CPU time over the run (the push service is elsewhere) / count.
 */
export async function benchPush(count: number, ratePerS: number): Promise<PushResult> {
  const service = fork(fileURLToPath(new URL('./pushService.ts', import.meta.url)), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const latencies: number[] = [];
  let ready: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  let gotDevices: (m: FromService) => void;
  const devices = new Promise<FromService>((r) => (gotDevices = r));
  service.on('message', (m: FromService) => {
    if (m.ready) ready();
    if (m.subscriptions) gotDevices(m);
    if (m.received !== undefined) latencies.push(m.received);
  });
  await isReady;
  service.send({ devices: count });
  const { subscriptions, ca, host } = await devices;

  const server = await startTestServer(
    { DATABASE_URL: '' },
    { log: pino({ level: 'silent' }), pushTransport: { allowHosts: [host!], ca: ca! } },
  );
  try {
    const db = server.deps.db;
    const ids: string[] = [];
    for (let i = 0; i < count; i += 500) {
      const rows = await db
        .insert(users)
        .values(
          Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
            username: `push${i + j}`,
            age: 30,
            gender: 'other' as const,
            isVerified: true,
          })),
        )
        .returning({ id: users.id });
      ids.push(...rows.map((r) => r.id));
    }
    await db.insert(pushSubscriptions).values(
      ids.map((userId, i) => ({
        userId,
        endpoint: subscriptions![i]!.endpoint,
        p256dh: subscriptions![i]!.keys.p256dh,
        auth: subscriptions![i]!.keys.auth,
      })),
    );

    // Warm-up: TLS sessions, JIT; not counted.
    for (let i = 0; i < 20; i++)
      await server.notifier.notify(ids[i]!, {
        kind: 'friendRequest',
        words: said('bench', `warm-up @${sharedNow()}`),
        link: '/users/bench',
      });
    await new Promise((r) => setTimeout(r, 500));
    latencies.length = 0;

    const cpu = process.cpuUsage();
    const machine = machineCpu();
    const started = performance.now();
    const sends: Array<Promise<unknown>> = [];
    for (let i = 0; i < count; i++) {
      const due = started + (i * 1000) / ratePerS;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      sends.push(
        server.notifier.notify(ids[i]!, { kind: 'friendRequest', words: said('bench', `${i} @${sharedNow()}`), link: '/users/bench' }),
      );
    }
    await Promise.allSettled(sends);
    const deadline = performance.now() + 15_000;
    while (latencies.length < count && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const used = process.cpuUsage(cpu);
    const eventToPushMs = summarize(latencies);
    return {
      notifications: count,
      ratePerS,
      received: latencies.length,
      lost: count - latencies.length,
      eventToPushMs,
      goalP99Ms: 500,
      met: eventToPushMs.p99 < 500 && latencies.length === count,
      serverCpuMsPerPush: Math.round(((used.user + used.system) / 1000 / count) * 100) / 100,
      machine: machine(),
    };
  } finally {
    await server.close();
    service.send({ close: true });
  }
}
