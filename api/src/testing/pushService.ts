import https from 'node:https';
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import ece from 'http_ece';
import type { PushPayload, PushSubscriptionBody } from '@parley/contract/notifications';

/** What the stand-in received for one push, decrypted with the device's keys. */
export type ReceivedPush = { device: string; payload: PushPayload; headers: Record<string, string | string[] | undefined>; at: number };

export type Device = { id: string; subscription: PushSubscriptionBody; keys: { ecdh: ECDH; auth: Buffer } };

/**
 * A local Web Push service, in place of the browsers' (no internet in tests): HTTPS with a
 * self-signed certificate for 127.0.0.1, one endpoint per device, and each push it receives
 * decrypted (aes128gcm, http_ece) with that device's private key and auth secret, as a browser
 * would. `answer` sets what a device's endpoint replies (201, or 410 for a gone subscription).
 */
export async function startPushService() {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec' });
  const devices = new Map<string, Device>();
  const statuses = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const waiters: Array<{ until: (r: ReceivedPush[]) => boolean; resolve(): void }> = [];
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (req.url ?? '').replace(/^\/push\//, '');
      const device = devices.get(id);
      const status = statuses.get(id) ?? (device ? 201 : 404);
      if (device && status < 300) {
        const plain = ece.decrypt(Buffer.concat(chunks), {
          version: 'aes128gcm',
          privateKey: device.keys.ecdh,
          authSecret: device.keys.auth.toString('base64url'),
        });
        received.push({
          device: id,
          payload: JSON.parse(plain.toString('utf8')) as PushPayload,
          headers: req.headers,
          at: performance.now(),
        });
        for (const w of [...waiters]) {
          if (!w.until(received)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    ca: pems.cert,
    host: '127.0.0.1',
    received,
    /** A new device: its key pair, auth secret and the subscription a browser would hand the server. */
    device(): Device {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(8).toString('hex');
      const d: Device = {
        id,
        keys: { ecdh, auth },
        subscription: {
          endpoint: `${base}/push/${id}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
      };
      devices.set(id, d);
      return d;
    },
    answer(device: Device, status: number) {
      statuses.set(device.id, status);
    },
    /** Resolves once `until` holds for what was received. */
    waitFor(until: (r: ReceivedPush[]) => boolean, ms = 10_000): Promise<void> {
      if (until(received)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const w = { until, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i < 0) return;
          waiters.splice(i, 1);
          reject(new Error(`push stand-in: condition not met within ${ms} ms (${received.length} received)`));
        }, ms).unref();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type PushService = Awaited<ReturnType<typeof startPushService>>;
