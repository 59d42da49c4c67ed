import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { Namespace, ConfigMap, Service, Secret } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { loadConfig } from './platform/config.ts';
import { repoRoot } from './platform/paths.ts';

const run = promisify(execFile);
const dir = path.join(repoRoot, 'deploy/k8s');

/** The API schemas of Kubernetes (kubernetes-models: the OpenAPI of a release, compiled to validators) by apiVersion and kind. */
const MODELS: Record<string, new (o: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
};

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are read as plain YAML; the schemas check their shape */
type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: any;
  stringData?: any;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

const docs = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]!.message}`);
    return d.toJS() as Obj;
  });

/** What `kubectl apply -k deploy/k8s` applies, rendered as kustomize does for what this kustomization uses (resources, namespace). */
function rendered(): Obj[] {
  const k = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')) as { namespace: string; resources: string[] };
  return k.resources.flatMap(docs).map((o) => (o.kind === 'Namespace' ? o : { ...o, metadata: { ...o.metadata, namespace: k.namespace } }));
}

const objects = rendered();
const secret = docs('secret.example.yaml')[0]!;
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('are valid objects of the Kubernetes API, each of them', () => {
    expect(objects.length).toBeGreaterThanOrEqual(10);
    for (const o of [...objects, secret]) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `a schema for ${o.apiVersion} ${o.kind}`).toBeDefined();
      expect(() => new Model!(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
    }
  });

  it('catch an invalid object (the validation is real)', () => {
    const api = structuredClone(find('Deployment', 'parley-api')!);
    api.spec.template.spec.containers[0].ports[0].containerPort = 'three thousand';
    expect(() => new Deployment(api as never).validate()).toThrow(/containerPort must be integer/);
  });

  it('give the API a configuration it starts with (the ConfigMap and the example Secret)', () => {
    const env = { ...find('ConfigMap', 'parley-config')!.data, ...secret.stringData, RTC_PUBLIC_IP: '203.0.113.7' };
    const cfg = loadConfig(env);
    expect(cfg.DATABASE_URL).toContain('parley-postgres');
    expect(cfg.REDIS_URL).toContain('parley-redis');
    expect(cfg.METRICS_PORT).toBe(9464);
    // Every SFU port of the range is a UDP host port of the pod.
    const [first, last] = cfg.RTC_PORT_RANGE!.split('-').map(Number) as [number, number];
    const ports = find('Deployment', 'parley-api')!.spec.template.spec.containers[0].ports as Array<{
      containerPort: number;
      hostPort?: number;
      protocol: string;
    }>;
    const udp = ports.filter((p) => p.protocol === 'UDP');
    expect(udp.map((p) => p.hostPort)).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    expect(udp.every((p) => p.hostPort === p.containerPort)).toBe(true);
  });

  it('let a pod drain before the kubelet kills it: the grace period covers preStop and SHUTDOWN_GRACE_MS', () => {
    const cfg = loadConfig({ ...find('ConfigMap', 'parley-config')!.data, ...secret.stringData });
    const pod = find('Deployment', 'parley-api')!.spec.template.spec;
    const command = pod.containers[0].lifecycle.preStop.exec.command as string[];
    expect(command[0]).toBe('sleep');
    const preStopS = Number(command[1]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStopS + cfg.SHUTDOWN_GRACE_MS / 1000);
  });

  it('probe the health route and the metrics port, and read their secrets from parley-secrets', () => {
    const api = find('Deployment', 'parley-api')!;
    const c = api.spec.template.spec.containers[0];
    const named = new Set((c.ports as Array<{ name: string }>).map((p) => p.name));
    expect(c.readinessProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/metrics', port: 'metrics' });
    for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) expect(named.has(probe.httpGet.port)).toBe(true);
    expect(c.envFrom).toContainEqual({ secretRef: { name: 'parley-secrets' } });
    const peer = find('Deployment', 'parley-peer-server')!.spec.template.spec.containers[0];
    const jwt = (peer.env as Array<{ name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>).find(
      (e) => e.name === 'JWT_SECRET',
    );
    expect(jwt?.valueFrom?.secretKeyRef).toEqual({ name: 'parley-secrets', key: 'JWT_SECRET' });
    expect(Object.keys(secret.stringData)).toEqual(
      expect.arrayContaining(['JWT_SECRET', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']),
    );
  });

  it('wire selectors, services, the disruption budget, the autoscaler and the ingress to what exists', () => {
    for (const d of objects.filter((o) => o.kind === 'Deployment'))
      expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), d.metadata.name).toBe(true);
    const podLabels = objects.filter((o) => o.kind === 'Deployment').map((d) => d.spec.template.metadata.labels as Record<string, string>);
    for (const s of objects.filter((o) => o.kind === 'Service' && o.spec.type !== 'ExternalName'))
      expect(
        podLabels.some((l) => matches(s.spec.selector, l)),
        `service ${s.metadata.name}`,
      ).toBe(true);
    const pdb = find('PodDisruptionBudget', 'parley-api')!;
    expect(matches(pdb.spec.selector.matchLabels, find('Deployment', 'parley-api')!.spec.template.metadata.labels)).toBe(true);
    const hpa = find('HorizontalPodAutoscaler', 'parley-api')!;
    expect(find(hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name)).toBeDefined();

    const ingress = find('Ingress', 'parley')!;
    const paths = ingress.spec.rules[0].http.paths as Array<{
      path: string;
      backend: { service: { name: string; port: { name: string } } };
    }>;
    for (const p of paths) {
      const svc = find('Service', p.backend.service.name);
      expect(svc, p.path).toBeDefined();
      expect((svc!.spec.ports as Array<{ name: string }>).map((x) => x.name)).toContain(p.backend.service.port.name);
    }
    expect(paths.find((p) => p.path === '/socket.io')?.backend.service.name).toBe('parley-api');
    expect(paths.find((p) => p.path === '/peerjs')?.backend.service.name).toBe('parley-peer-server');
    // Sticky sessions for socket.io, websockets held open.
    expect(ingress.metadata).toMatchObject({ annotations: { 'nginx.ingress.kubernetes.io/affinity': 'cookie' } });
    expect(Number(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);
    // PostgreSQL and Redis are external services under the names the Secret's URLs use.
    expect(find('Service', 'parley-postgres')?.spec.type).toBe('ExternalName');
    expect(find('Service', 'parley-redis')?.spec.type).toBe('ExternalName');
  });

  it.skipIf(!existsSync('/usr/bin/kubectl') && !existsSync('/usr/local/bin/kubectl'))(
    'render with kubectl kustomize to the same objects',
    async () => {
      const { stdout } = await run('kubectl', ['kustomize', dir]);
      const theirs = parseAllDocuments(stdout).map((d) => d.toJS() as Obj);
      const key = (o: Obj) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      expect(theirs.map(key).sort()).toEqual(objects.map(key).sort());
      for (const o of theirs) expect(() => new MODELS[`${o.apiVersion}/${o.kind}`]!(o as never).validate(), key(o)).not.toThrow();
    },
  );
});
