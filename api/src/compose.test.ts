import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from './platform/config.ts';
import { repoRoot } from './platform/paths.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- compose and Prometheus files are read as plain YAML */
const read = (file: string): any => parse(readFileSync(path.join(repoRoot, file), 'utf8'), { merge: true });
const compose = read('docker-compose.yml');
const services = compose.services as Record<string, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A compose value with `${VAR:-default}` read as its default. */
const withDefaults = (v: string) => v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1').replace(/\$\{[A-Z_]+\}/g, '');

describe('docker-compose.yml: metrics, Prometheus and Grafana', () => {
  const replicas = Object.keys(services).filter((n) => /^api-\d+$/.test(n));

  it('gives every API replica a metrics port on the compose network, published nowhere', () => {
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    for (const name of replicas) {
      const env = Object.fromEntries(
        Object.entries(services[name].environment as Record<string, string>).map(([k, v]) => [k, withDefaults(String(v))]),
      );
      const cfg = loadConfig(env);
      expect(cfg.METRICS_PORT, name).toBe(9464);
      expect(cfg.METRICS_HOST, name).toBe('0.0.0.0');
      for (const p of (services[name].ports ?? []) as string[]) expect(p, name).not.toContain('9464');
    }
  });

  it('has Prometheus scrape each replica with the alert rules, and Grafana read Prometheus and the dashboard', () => {
    const prom = services.prometheus;
    const mounts = (prom.volumes as string[]).filter((v) => v.startsWith('./'));
    for (const m of mounts) expect(existsSync(path.join(repoRoot, m.split(':')[0]!)), m).toBe(true);
    const config = read('deploy/prometheus/prometheus.yml');
    const targets = config.scrape_configs.flatMap((s: { static_configs: Array<{ targets: string[] }> }) =>
      s.static_configs.flatMap((c) => c.targets),
    );
    expect(targets.sort()).toEqual(replicas.map((r) => `${r}:9464`).sort());
    // The rules file sits beside the config in the container, as the config names it.
    const ruleMount = mounts.find((m) => m.includes('alerts.yml'))!;
    expect(path.posix.join('/etc/prometheus', config.rule_files[0])).toBe(ruleMount.split(':')[1]);
    // Bound to this machine unless told otherwise.
    for (const name of ['prometheus', 'grafana'])
      for (const p of services[name].ports as string[]) expect(withDefaults(p)).toMatch(/^127\.0\.0\.1:/);

    const grafana = services.grafana;
    for (const m of (grafana.volumes as string[]).filter((v) => v.startsWith('./')))
      expect(existsSync(path.join(repoRoot, m.split(':')[0]!)), m).toBe(true);
    const source = read('deploy/grafana/provisioning/datasources/prometheus.yml').datasources[0];
    expect(source.url).toBe('http://prometheus:9090');
    const dashboards = read('deploy/grafana/provisioning/dashboards/parley.yml').providers[0].options.path;
    expect((grafana.volumes as string[]).some((v) => v.endsWith(`:${dashboards}:ro`))).toBe(true);
    const dash = JSON.parse(readFileSync(path.join(repoRoot, 'deploy/grafana/dashboards/parley.json'), 'utf8')) as {
      panels: Array<{ datasource?: { uid: string } }>;
    };
    for (const p of dash.panels.filter((x) => x.datasource)) expect(p.datasource!.uid).toBe(source.uid);
  });
});
