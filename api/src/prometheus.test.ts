import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './platform/paths.ts';
import { startTestServer, type TestServer } from './testing/server.ts';

const run = promisify(execFile);
const deploy = path.join(repoRoot, 'deploy');
const alerts = path.join(deploy, 'prometheus/alerts.yml');

/** Debian's prometheus package (promtool with it); .ci/run installs it, so CI never skips. */
const binary = (name: string) => ['/usr/bin', '/usr/local/bin'].map((d) => path.join(d, name)).find((p) => existsSync(p));
const installed = binary('prometheus') !== undefined && binary('promtool') !== undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Every PromQL expression of the Grafana dashboard. */
function dashboardQueries(): string[] {
  const dash = JSON.parse(readFileSync(path.join(deploy, 'grafana/dashboards/parley.json'), 'utf8')) as {
    panels: Array<{ targets?: Array<{ expr: string }> }>;
  };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

/** Metric names an expression reads, as the exporter names them (a histogram's series by its base name). */
function metricNames(expr: string): string[] {
  const names = expr.match(/\b(?:parley|nodejs|process)_[a-z0-9_]+/g) ?? [];
  return names.map((n) => n.replace(/_(bucket|count|sum)$/, ''));
}

/** The exporter declares the metric (a series without samples yet, a histogram nothing was observed in, still has its TYPE line). */
const exported = (name: string) => new RegExp(`^# TYPE ${name} `, 'm');

describe.skipIf(!installed && !process.env.CI)('Prometheus scraping a running Parley', () => {
  let server: TestServer;
  let prometheus: ChildProcess | undefined;
  let work: string;
  let base: string;
  let exposed: string;

  const query = async (q: string) => {
    const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
    return (await res.json()) as {
      status: string;
      error?: string;
      data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
    };
  };

  /** Polls until `check` holds: Prometheus scrapes and evaluates on its own clock. */
  async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 240; i++) {
      const v = await check().catch(() => undefined);
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`Prometheus never showed ${what}`);
  }

  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0' });
    exposed = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
    work = await mkdtemp(path.join(os.tmpdir(), 'parley-prometheus-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const config = [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      `rule_files: ['${alerts}']`,
      'scrape_configs:',
      '  - job_name: parley',
      `    static_configs: [{ targets: ['127.0.0.1:${server.metricsPort}'] }]`,
    ].join('\n');
    await writeFile(path.join(work, 'prometheus.yml'), config);
    prometheus = spawn(
      binary('prometheus')!,
      [
        `--config.file=${path.join(work, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(work, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    await until('ready', async () => ((await fetch(`${base}/-/ready`)).ok ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus!.once('exit', r));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 60_000);

  it('scrapes the metrics port and reads Parley series from it', async () => {
    const up = await until('the target up', async () => {
      const r = await query('up{job="parley"}');
      return r.data.result[0]?.value[1] === '1' ? r : undefined;
    });
    expect(up.data.result).toHaveLength(1);
    const sockets = await until('parley_socket_connections', async () => (await query('parley_socket_connections')).data.result[0]);
    expect(sockets.value[1]).toBe('0');
    const lag = await until('the event-loop lag', async () => (await query('nodejs_eventloop_lag_p99_seconds')).data.result[0]);
    expect(Number(lag.value[1])).toBeGreaterThanOrEqual(0);
  }, 90_000);

  it('loads every alert rule, healthy, and none fires on an idle Parley', async () => {
    const groups = await until('the rules evaluated', async () => {
      const r = (await (await fetch(`${base}/api/v1/rules`)).json()) as {
        data: { groups: Array<{ rules: Array<{ name: string; health: string; state: string; lastError?: string }> }> };
      };
      const rules = r.data.groups.flatMap((g) => g.rules);
      return rules.length > 0 && rules.every((x) => x.health !== 'unknown') ? rules : undefined;
    });
    expect(groups.length).toBeGreaterThanOrEqual(10);
    for (const rule of groups) {
      expect(rule.health, `${rule.name}: ${rule.lastError}`).toBe('ok');
      // Pending is possible on a busy machine (event-loop lag); firing is not: the rules without a
      // `for` (refusals counted) would fire at once on an idle Parley only if they were wrong.
      expect(rule.state, rule.name).not.toBe('firing');
    }
  }, 90_000);

  it('runs every dashboard query, each reading metrics Parley exports', async () => {
    for (const expr of dashboardQueries()) {
      const r = await query(expr.replaceAll('$__rate_interval', '1m'));
      expect(r.status, `${expr}: ${r.error}`).toBe('success');
      for (const name of metricNames(expr)) expect(exposed, `${name} in ${expr}`).toMatch(exported(name));
    }
  }, 90_000);

  it('passes promtool check rules and the rules unit tests, and reads only exported metrics', async () => {
    const checked = await run(binary('promtool')!, ['check', 'rules', alerts]);
    expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
    const tested = await run(binary('promtool')!, ['test', 'rules', 'alerts.test.yml'], { cwd: path.join(deploy, 'prometheus') });
    expect(tested.stdout + tested.stderr).toContain('SUCCESS');
    const rulesText = readFileSync(alerts, 'utf8');
    for (const name of metricNames(rulesText)) expect(exposed, name).toMatch(exported(name));
  }, 60_000);
});
