import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { servicesPass } from '../testing/passes.ts';

describe.skipIf(servicesPass)('the HTTP server', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The embedded database: nothing here depends on which one.
    server = await startTestServer({ DATABASE_URL: '' });
  });
  afterAll(() => server?.close());

  it('keeps an idle keep-alive connection open past Node’s 5 s, so a proxy reusing it gets an answer, not a reset', async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    const ask = () =>
      new Promise<string>((resolve) => {
        let text = '';
        const onData = (d: Buffer) => {
          text += d.toString();
          if (/\r\n\r\n[\s\S]+/.test(text)) {
            socket.off('data', onData);
            resolve(text);
          }
        };
        socket.on('data', onData);
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
      });
    expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((r) => setTimeout(r, 6_000));
    expect(closed).toBe(false);
    expect(await ask()).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  });
});
