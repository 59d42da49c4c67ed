import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { presenceEvents } from '@parley/contract/presence';
import { repoRoot } from './paths.ts';
import { tracingConfigured } from './tracing.ts';
import { signupAt } from '../testing/proofOfWork.ts';
import { testPostgres } from '../testing/server.ts';
import { startNodeFlags } from '../../../scripts/start-flags.mjs';

// The built server is started as `npm start` does; a first start may build its bundle.
const SLOW_MS = 120_000;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

type Span = { name: string; traceId: string; kind: number; attributes?: Array<{ key: string }> };

/** An OTLP/HTTP collector stand-in: takes the JSON export requests the SDK posts to /v1/traces. */
async function collector() {
  const spans: Span[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      paths.push(req.url ?? '');
      const data = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
      for (const r of data.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, spans, paths };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

async function until<T>(what: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('traces', () => {
  it('are off unless an OTLP endpoint is set', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it(
    'of HTTP requests, socket.io events and database statements reach an OTLP collector; log lines carry the trace id',
    async () => {
      const otlp = await collector();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'parley-traces-'));
      const pwaDist = await mkdtemp(path.join(os.tmpdir(), 'parley-traces-pwa-'));
      cleanups.push(
        () => rm(dataDir, { recursive: true, force: true }),
        () => rm(pwaDist, { recursive: true, force: true }),
      );
      await writeFile(path.join(pwaDist, 'index.html'), '<!doctype html><title>Parley</title>');
      // On PostgreSQL and Redis (when this run has them) statements and commands are pg's and ioredis's
      // spans, else the embedded database's.
      const pgDb = await testPostgres();
      if (pgDb.drop) cleanups.push(pgDb.drop);
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SKIP_PWA_BUILD: 'true',
        PWA_DIST: pwaDist,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_SERVICE_NAME: 'parley-test',
      };
      delete env.PUBLIC_URL;
      if (pgDb.url) env.DATABASE_URL = pgDb.url;
      else delete env.DATABASE_URL;
      const child = spawn(process.execPath, [...startNodeFlags(repoRoot), 'scripts/start.mjs'], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      cleanups.push(async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      const base = `http://127.0.0.1:${port}`;
      const up = await until(
        () => (output.includes('Parley is running') ? true : child.exitCode !== null ? false : undefined),
        SLOW_MS - 30_000,
      );
      expect(up, output).toBe(true);

      const signup = await signupAt(base, { username: 'Traced', password: 'a password to trace', age: 30, gender: 'female' });
      expect(signup.status).toBe(201);
      const { accessToken } = (await signup.json()) as { accessToken: string };
      const { userId } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { userId: string };
      const socket = ioClient(base, {
        transports: ['websocket'],
        reconnection: false,
        auth: { token: accessToken, protocol: REALTIME_PROTOCOL },
        query: { userId, username: 'Traced' },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      // Answered by a page or a refusal: either way the event went through the server's handler.
      const answered = new Promise((resolve) => socket.onAny((event: string) => event !== presenceEvents.onlineUsers && resolve(event)));
      socket.emit(presenceEvents.more, { cursor: 'nobody' });
      expect(await Promise.race([answered, new Promise((r) => setTimeout(() => r('no answer'), 10_000))])).not.toBe('no answer');
      socket.close();

      const signupSpan = await until(
        () => otlp.spans.find((s) => s.kind === 2 && /POST/.test(s.name) && /signup/.test(JSON.stringify(s.attributes))),
        20_000,
      );
      expect(signupSpan, JSON.stringify(otlp.spans.map((s) => s.name))).toBeDefined();
      const names = () => otlp.spans.map((s) => s.name);
      // socket.io's spans are named by namespace; the event is an attribute.
      const received = () =>
        otlp.spans.find((s) => s.name.startsWith('receive') && JSON.stringify(s.attributes).includes(presenceEvents.more));
      expect(await until(received, 20_000), names().join(', ')).toBeDefined();
      const dbSpan = otlp.spans.find(
        (s) => s.traceId === signupSpan!.traceId && (pgDb.url ? /^pg\./.test(s.name) : /^pglite /.test(s.name)),
      );
      expect(dbSpan, names().join(', ')).toBeDefined();
      // Scaled out, Redis commands are spans too (presence, the adapter).
      if (env.REDIS_URL)
        expect(
          otlp.spans.some((s) => s.kind === 3 && /^(get|set|hset|hget|publish|eval|evalsha|incr|expire|zadd|sadd|hgetall)$/i.test(s.name)),
          names().join(', '),
        ).toBe(true);
      expect(otlp.paths.every((p) => p === '/v1/traces')).toBe(true);

      // The request's log line names the trace it belongs to.
      const signupLog = output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; path?: string; trace_id?: string })
        .find((l) => l.msg === 'request' && l.path?.includes('signup'));
      expect(signupLog?.trace_id, output).toBe(signupSpan!.traceId);

      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
    SLOW_MS,
  );
});
