import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_BURST } from '@parley/contract/matchmaking';
import { roomEvents } from '@parley/contract/rooms';
import { loadConfig } from './config.ts';
import { metricsText, queryDone } from './metrics.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';
import { next, postTo, said, socketClients } from '../testing/socketClients.ts';

/** One sample's value in Prometheus's text format: `name{labels} value`, the labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('the histograms every message and statement observe', () => {
  it('count each observation in its bucket and every bucket above, with the sum and the count', async () => {
    const read = async () => {
      const { body } = await metricsText();
      const at = (le: string) => sample(body, 'parley_db_query_duration_seconds_bucket', { driver: 'postgres', le }) ?? 0;
      return {
        below: at('0.025'),
        at: at('0.05'),
        inf: at('+Inf'),
        sum: sample(body, 'parley_db_query_duration_seconds_sum', { driver: 'postgres' }) ?? 0,
        count: sample(body, 'parley_db_query_duration_seconds_count', { driver: 'postgres' }) ?? 0,
      };
    };
    const before = await read();
    // Sent 40 ms ago: past the 25 ms bucket, within the 50 ms one.
    queryDone('postgres', performance.now() - 40);
    const after = await read();
    expect(after.below).toBe(before.below);
    expect(after.at).toBe(before.at + 1);
    expect(after.inf).toBe(before.inf + 1);
    expect(after.count).toBe(before.count + 1);
    expect(after.sum - before.sum).toBeGreaterThanOrEqual(0.04);
    expect(after.sum - before.sum).toBeLessThan(0.05);
  });
});

describe('metrics on a port of their own', () => {
  let server: TestServer;
  const clients = socketClients(() => server);
  const scrape = async (init?: RequestInit) => {
    const res = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`, init);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
  });
  afterEach(() => clients.closeAll());
  afterAll(() => server.close());

  it('is not on the public port, and listens on 127.0.0.1 only', async () => {
    expect(server.metricsPort).toBeGreaterThan(0);
    // Without METRICS_TOKEN, the API's own port has no /metrics (an unknown path, not the metrics).
    const pub = await server.api('/metrics');
    expect(await pub.text()).not.toContain('parley_');
    expect(loadConfig({}).METRICS_HOST).toBe('127.0.0.1');
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    // An empty setting (a compose variable left blank) is the default, never every interface.
    expect(loadConfig({ METRICS_HOST: '' }).METRICS_HOST).toBe('127.0.0.1');
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });

  it('counts requests by route template, never by path', async () => {
    await server.api('/api/health');
    await server.api('/api/people/00000000-0000-4000-8000-000000000000');
    await server.api('/api/nowhere/at/all');
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(
      sample(text, 'parley_http_request_duration_seconds_count', { method: 'GET', route: '/api/health', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'parley_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(text).not.toContain('/api/nowhere');
  });

  it('shows sockets, a match with its wait, and a message with its delivery by room kind', async () => {
    const before = await scrape();
    const matchedBefore = sample(before.text, 'parley_matchmaking_wait_seconds_count', { room_type: 'textChat' }) ?? 0;
    const sentBefore = sample(before.text, 'parley_room_message_delivery_seconds_count', { kind: 'textChat' }) ?? 0;
    const { ka, kb, roomId } = await clients.chatting();
    const got = next(kb, roomEvents.message);
    await said(ka, roomId, 'hello');
    await got;
    const { text } = await scrape();
    expect(sample(text, 'parley_socket_connections')).toBe(2);
    // Two people came online: the online count went out to the sockets.
    expect(sample(text, 'parley_presence_updates_total', { kind: 'count' })).toBeGreaterThan(0);
    expect(sample(text, 'parley_matchmaking_wait_seconds_count', { room_type: 'textChat' })).toBe(matchedBefore + 2);
    expect(sample(text, 'parley_matchmaking_searches_waiting', { room_type: 'textChat' })).toBe(0);
    expect(sample(text, 'parley_room_message_delivery_seconds_count', { kind: 'textChat' })).toBe(sentBefore + 1);

    // Past the message allowance (a burst of MESSAGE_BURST), the refusals are counted under the chat's limiter.
    // Three bursts at once: the allowance refills while a busy machine handles them.
    const answers = await Promise.all(Array.from({ length: MESSAGE_BURST * 3 }, () => postTo(ka, roomId, 'flood')));
    const refused = answers.filter((a) => !a.ok && a.code === 'rate_limited').length;
    expect(refused).toBeGreaterThan(0);
    const after = (await scrape()).text;
    expect(sample(after, 'parley_rate_limit_refusals_total', { limiter: 'chat-messages' })).toBeGreaterThanOrEqual(refused);
  });

  it('has the process, event-loop, SFU and database numbers', async () => {
    const { text } = await scrape();
    for (const name of [
      'nodejs_eventloop_lag_p99_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'parley_sfu_streams',
      'parley_sfu_udp_ports_in_use',
      'parley_sfu_udp_ports_total',
    ])
      expect(sample(text, name), name).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'parley_db_query_duration_seconds_count', { driver: server.deps.dbKind })).toBeGreaterThan(0);
    if (server.deps.dbKind === 'pglite') expect(sample(text, 'parley_pglite_memory_bytes', { area: 'wasm' })).toBeGreaterThan(1_000_000);
    else expect(sample(text, 'parley_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    // Scaled out, this replica sees itself alive in Redis.
    if (process.env.REDIS_URL) expect(sample(text, 'parley_cluster_replicas', { state: 'alive' })).toBeGreaterThanOrEqual(1);
    else expect(sample(text, 'parley_cluster_replicas', { state: 'alive' })).toBeUndefined();
  });

  it('answers only GET /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${server.metricsPort}/`)).status).toBe(404);
    expect((await scrape({ method: 'POST' })).status).toBe(404);
  });
});

describe('metrics behind a token on the main port', () => {
  const token = 'a-metrics-token-for-this-test-only';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: token, SIGNUPS_PER_ADDRESS: '1' });
  });
  afterAll(() => server.close());

  it('refuses a scrape without the token, or with a wrong one, and counts rate-limit refusals by limiter', async () => {
    expect((await server.api('/metrics')).status).toBe(401);
    const wrong = await server.api('/metrics', { headers: { authorization: `Bearer ${token.slice(0, -1)}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(await wrong.text()).not.toContain('parley_');

    // Username checks are limited per address: past the limit, a refusal counted under its limiter's name.
    for (let i = 0; i < 100; i++) {
      const r = await server.api(`/api/auth/username-check?username=someone${i}`);
      if (r.status === 429) break;
    }
    const res = await server.api('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'parley_rate_limit_refusals_total', { limiter: 'username-check-addr' })).toBeGreaterThanOrEqual(1);
  });
});
