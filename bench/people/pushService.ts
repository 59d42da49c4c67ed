/**
 * The local push service of `bench:people`, in a process of its own so that its TLS and decryption
 * are not counted as the server's CPU. Messages: parent → { devices: n } → { subscriptions, ca };
 * every push received → { received: latencyMs } (the payload's body carries the send time).
 */
import { startPushService } from '../../api/src/testing/pushService.ts';
import { sharedNow } from '../lib/stats.ts';

const push = await startPushService();
const send = (m: unknown) => process.send!(m);
process.on('message', (m: { devices?: number; close?: boolean }) => {
  if (m.devices) {
    const subscriptions = Array.from({ length: m.devices }, () => push.device().subscription);
    send({ subscriptions, ca: push.ca, host: push.host });
  }
  if (m.close) void push.close().then(() => process.exit(0));
});
let seen = 0;
const poll = setInterval(() => {
  for (; seen < push.received.length; seen++) {
    const r = push.received[seen]!;
    const sentAt = Number(/@(\d+(?:\.\d+)?)$/.exec(r.payload.body)?.[1]);
    send({ received: sharedNow() - (performance.now() - r.at) - sentAt });
  }
}, 5);
poll.unref();
send({ ready: true });
