import http from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { RoomType } from '@parley/contract/matchmaking';
import type { RoomKind } from '@parley/contract/rooms';

/**
 * Prometheus metrics of the whole process: one registry, served on METRICS_PORT or behind
 * METRICS_TOKEN (never on the public port unasked). Hot paths only increment or observe; gauges
 * of state (sockets, searches waiting, the SFU, the database) are read when Prometheus scrapes.
 * Labels are bounded sets (routes, kinds, outcomes): never a user, room or address.
 */
export const registry = new client.Registry();
// Event-loop lag, GC pauses, heap and process memory, file descriptors.
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

const ms = 1000;
/** Request and query latencies: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A search's wait for a partner: a second to ten minutes. */
const WAIT_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

const httpDuration = new client.Histogram({
  name: 'parley_http_request_duration_seconds',
  help: 'HTTP requests by route template, method and status, with their latency',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One HTTP request answered: `route` is the router's template (`/api/rooms/:id`), never the path itself. */
export function httpObserved(method: string, route: string | undefined, path: string, status: number, millis: number) {
  const template = route ?? (path === '/api' || path.startsWith('/api/') ? 'unmatched' : 'static');
  httpDuration.observe({ method: METHODS.has(method) ? method : 'other', route: template, status }, millis / ms);
}

/** One series of a HotHistogram: counts per bucket (not cumulative), their sum and number. */
type HotSeries = { counts: Float64Array; sum: number; count: number };

/**
 * A histogram with one label for the paths every message or statement takes: an observation is a
 * map look-up, a bucket search and three additions (prom-client's validates and hashes its labels
 * and makes a closure at each: 2 % of the server's CPU with every relayed message observed). The
 * registry reads it at scrape time in prom-client's histogram format; a series shows once observed.
 */
class HotHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HotSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly label: string,
    private readonly buckets: readonly number[],
  ) {
    registry.registerMetric(this as unknown as client.Metric);
  }

  /** One observation, in seconds, in the series of this label value. */
  observe(value: string, seconds: number) {
    let s = this.series.get(value);
    if (!s) this.series.set(value, (s = { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 }));
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const [value, s] of this.series) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ labels: { le, [this.label]: value }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', [this.label]: value }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { [this.label]: value }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { [this.label]: value }, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** What the registry's resetMetrics() calls on every metric. */
  reset() {
    this.series.clear();
  }
}

const deliveries = new HotHistogram(
  'parley_room_message_delivery_seconds',
  "Messages delivered, by room kind, and their latency: from a post arriving to its fan-out to the room (stored kinds: once written), or to the partner's acknowledgement (a 1:1 chat's relay)",
  'kind',
  LATENCY_BUCKETS,
);

/** A fresh message was sent to its room; `since` is performance.now() when its post arrived. */
export function messageDelivered(kind: RoomKind, since: number) {
  deliveries.observe(kind, (performance.now() - since) / ms);
}

const matchWait = new HotHistogram(
  'parley_matchmaking_wait_seconds',
  'Searches matched with a partner, by room type, and how long each had waited (each match counts its two sides)',
  'room_type',
  WAIT_BUCKETS,
);

/** A search was matched; `since` is performance.now() when it began waiting. */
export function searchMatched(roomType: RoomType, since: number) {
  matchWait.observe(roomType, (performance.now() - since) / ms);
}

const pushes = new client.Counter({
  name: 'parley_push_notifications_total',
  help: 'Web Push sends by outcome: sent, failed (kept, tried again later) or gone (the subscription was removed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function pushSent(o: { sent: number; failed: number; removed: number }) {
  if (o.sent) pushes.inc({ outcome: 'sent' }, o.sent);
  if (o.failed) pushes.inc({ outcome: 'failed' }, o.failed);
  if (o.removed) pushes.inc({ outcome: 'gone' }, o.removed);
}

const webhooks = new client.Counter({
  name: 'parley_billing_webhook_events_total',
  help: 'Stripe webhook deliveries by outcome: handled, duplicate, bad_signature or retry_later',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function webhookEvent(outcome: 'handled' | 'duplicate' | 'bad_signature' | 'retry_later') {
  webhooks.inc({ outcome });
}

const refusals = new client.Counter({
  name: 'parley_rate_limit_refusals_total',
  help: 'Requests and events a rate limiter refused, by limiter',
  labelNames: ['limiter'] as const,
  registers: [registry],
});

/** `limiter` is a limiter's name in code (its key prefix), never a key. */
export function rateLimited(limiter: string) {
  refusals.inc({ limiter });
}

/**
 * A synchronous per-user allowance (the socket events' token buckets) whose refusals are counted
 * under `name`: the same object, its take() wrapped, so the hot path gains one comparison.
 */
export function refusalsCounted<L extends { take(key: string): boolean }>(name: string, limiter: L): L {
  const take = limiter.take.bind(limiter);
  const counter = refusals.labels({ limiter: name });
  limiter.take = (key: string) => {
    const ok = take(key);
    if (!ok) counter.inc();
    return ok;
  };
  return limiter;
}

const presence = new client.Counter({
  name: 'parley_presence_updates_total',
  help: "Presence frames sent to sockets, by kind: first_page (the online list on connecting), count (the online count, to every socket), delta (changes among a socket's list)",
  labelNames: ['kind'] as const,
  registers: [registry],
});
const presenceKinds = {
  first_page: presence.labels({ kind: 'first_page' }),
  count: presence.labels({ kind: 'count' }),
  delta: presence.labels({ kind: 'delta' }),
};

/** Presence frames sent: `sockets` is how many sockets this send reaches. */
export function presenceSent(kind: keyof typeof presenceKinds, sockets: number) {
  if (sockets > 0) presenceKinds[kind].inc(sockets);
}

const portRefusals = new client.Counter({
  name: 'parley_sfu_udp_port_refusals_total',
  help: "Live-stream peer connections refused because the SFU's UDP port range had no free port",
  registers: [registry],
});

export function sfuPortRefused() {
  portRefusals.inc();
}

const queries = new HotHistogram(
  'parley_db_query_duration_seconds',
  'Database statements and their latency, by driver (pglite: the embedded database thread; postgres: the pool)',
  'driver',
  LATENCY_BUCKETS,
);

/** A statement finished; `since` is performance.now() when it was sent. */
export function queryDone(driver: 'pglite' | 'postgres', since: number) {
  queries.observe(driver, (performance.now() - since) / ms);
}

const retentionRuns = new client.Counter({
  name: 'parley_retention_runs_total',
  // `task`, not `job`: Prometheus gives every series a `job` label of its own (the scrape job).
  help: 'Runs of the retention jobs the privacy policy names, by task and outcome (ok, failed)',
  labelNames: ['task', 'outcome'] as const,
  registers: [registry],
});
const retentionRows = new client.Counter({
  name: 'parley_retention_rows_deleted_total',
  help: 'Rows the retention jobs deleted or erased, by task',
  labelNames: ['task'] as const,
  registers: [registry],
});
const retentionLastSuccess = new client.Gauge({
  name: 'parley_retention_last_success_timestamp_seconds',
  help: 'When each retention job last finished without an error (Unix time), by task',
  labelNames: ['task'] as const,
  registers: [registry],
});

/** A retention job ran: `rows` it removed when it succeeded, undefined when it failed. */
export function retentionRan(task: string, rows: number | undefined, at = Date.now()) {
  retentionRuns.inc({ task, outcome: rows === undefined ? 'failed' : 'ok' });
  if (rows === undefined) return;
  retentionRows.inc({ task }, rows);
  retentionLastSuccess.set({ task }, at / ms);
}

// ---- state read at scrape time ----

/** What one running server tells the gauges (a test process may run several; they are summed). */
export type MetricsSource = {
  sockets(): number;
  searchesWaiting(): Promise<Partial<Record<RoomType, number>>>;
  sfu(): { streams: number; viewers: number; openPeers: number; boundPorts: number; portRange: number };
  /** PostgreSQL's pool, when the server uses one. */
  pool?(): { total: number; idle: number; waiting: number };
  /** The embedded database thread's memory, when the server runs one. */
  pglite?(): Promise<{ wasmBytes: number; heapBytes: number } | undefined>;
  /** Replicas registered in Redis and those of them with a live heartbeat, when scaled out. */
  replicas?(): Promise<{ known: number; alive: number }>;
};

const sources = new Set<MetricsSource>();

/** Registers a server's state for scrapes; the returned function removes it (on close). */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

const sum = (f: (s: MetricsSource) => number) => [...sources].reduce((n, s) => n + f(s), 0);

function stateGauge(name: string, help: string, read: () => number) {
  new client.Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

stateGauge('parley_socket_connections', 'Socket.io connections open on this process', () => sum((s) => s.sockets()));
stateGauge('parley_sfu_streams', 'Live streams this process holds', () => sum((s) => s.sfu().streams));
stateGauge('parley_sfu_viewers', "Viewers watching this process's live streams", () => sum((s) => s.sfu().viewers));
stateGauge('parley_sfu_peer_connections', "The SFU's open WebRTC peer connections", () => sum((s) => s.sfu().openPeers));
stateGauge('parley_sfu_udp_ports_in_use', 'UDP ports the SFU has bound', () => sum((s) => s.sfu().boundPorts));
stateGauge('parley_sfu_udp_ports_total', 'UDP ports in RTC_PORT_RANGE (0: any free port, no limit)', () => sum((s) => s.sfu().portRange));

new client.Gauge({
  name: 'parley_matchmaking_searches_waiting',
  help: 'Searches waiting for a partner, by room type (scaled out: the shared queue, as this replica sees it)',
  labelNames: ['room_type'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of sources) {
      for (const [roomType, n] of Object.entries(await s.searchesWaiting())) this.inc({ room_type: roomType }, n);
    }
  },
});

new client.Gauge({
  name: 'parley_db_pool_connections',
  help: 'PostgreSQL pool connections by state: total, idle, and waiting (requests queued for a connection)',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const s of sources) {
      const p = s.pool?.();
      if (!p) continue;
      this.inc({ state: 'total' }, p.total);
      this.inc({ state: 'idle' }, p.idle);
      this.inc({ state: 'waiting' }, p.waiting);
    }
  },
});

new client.Gauge({
  name: 'parley_pglite_memory_bytes',
  help: "The embedded database thread's memory: wasm (PGlite's WebAssembly heap, which never shrinks) and js (the thread's V8 heap)",
  labelNames: ['area'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of sources) {
      const m = await s.pglite?.();
      if (!m) continue;
      this.inc({ area: 'wasm' }, m.wasmBytes);
      this.inc({ area: 'js' }, m.heapBytes);
    }
  },
});

new client.Gauge({
  name: 'parley_cluster_replicas',
  help: 'API replicas in Redis as this replica sees them: known (registered, not yet cleaned up after) and alive (heartbeat fresh)',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const s of sources) {
      const n = await s.replicas?.();
      if (!n) continue;
      this.set({ state: 'known' }, n.known);
      this.set({ state: 'alive' }, n.alive);
    }
  },
});

// ---- serving ----

/** The metrics in Prometheus's text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Whether a request's `Authorization: Bearer …` is the metrics token (compared in constant time). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7).trim() : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The metrics on a port of their own (METRICS_PORT on METRICS_HOST, 127.0.0.1 unless told): GET
 * /metrics, and the token when METRICS_TOKEN is set too.
 */
export async function metricsServer(opts: { port: number; host: string; token?: string | undefined }) {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (opts.token && !tokenMatches(req.headers.authorization, opts.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized\n');
      return;
    }
    metricsText().then(
      (m) => res.writeHead(200, { 'content-type': m.contentType }).end(req.method === 'HEAD' ? undefined : m.body),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
