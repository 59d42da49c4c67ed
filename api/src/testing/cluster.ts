import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { accessTokens } from '../auth/tokens.ts';
import { accountParams, INSERT_ACCOUNTS } from './accounts.ts';
import { testPostgres } from './server.ts';
import { startNodeFlags } from '../../../scripts/start-flags.mjs';
import { ensureServerBuild } from '../../../scripts/build-server.mjs';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';
import { closeRedis, createRedis } from '../platform/redis.ts';

/**
 * Several real API processes (`npm start`'s server bundle) on one PostgreSQL database and one Redis
 * key prefix, behind nginx with deploy/nginx/parley.conf (its upstream hosts replaced by this
 * machine's ports): what docker-compose runs, for the cluster test and bench/cluster.ts.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** One API process; `restart` replaces its `child` and `exited` in place (same port, new instance). */
export type ApiProcess = { port: number; url: string; child: ChildProcess; exited: Promise<number | null> };

export type Cluster = {
  proxyUrl: string;
  prefix: string;
  jwtSecret: string;
  procs: ApiProcess[];
  /** The cluster's database (tests write what the API has no route for, such as a friendship). */
  dbUrl: string;
  /** Starts one more API process (a replica coming up); not behind the proxy unless it is one of the first two. */
  add(): Promise<ApiProcess>;
  /**
   * A rolling deploy's step for one process: SIGTERM, wait for it to exit (its code and how long it
   * took), then start it again on the same port (a new instance) and wait until it is healthy.
   */
  restart(proc: ApiProcess): Promise<{ code: number | null; stopMs: number }>;
  /** The user's account (created when missing, as a sign-up would) and an access token for it. */
  token(user: TokenUser): Promise<string>;
  close(): Promise<void>;
};

/** A free TCP port on 127.0.0.1, from `base` up (CI machines run nothing else there). */
async function freePort(from: number): Promise<number> {
  for (let p = from; p < from + 200; p++) {
    const ok = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(p, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (ok) return p;
  }
  throw new Error(`no free port from ${from}`);
}

// A start is a second or two alone; on a CI machine running browsers beside it, far longer.
async function waitHealthy(url: string, proc: ChildProcess, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`API process exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not healthy within ${ms} ms`);
}

/** deploy/nginx/parley.conf with this machine's ports, inside a minimal nginx.conf of its own. */
async function nginxConfig(dir: string, proxyPort: number, apiPorts: [number, number]) {
  const site = (await readFile(path.join(root, 'deploy/nginx/parley.conf'), 'utf8'))
    .replaceAll('api-1:3000', `127.0.0.1:${apiPorts[0]}`)
    .replaceAll('api-2:3000', `127.0.0.1:${apiPorts[1]}`)
    .replaceAll('peer-server:9000', '127.0.0.1:9')
    .replace(/listen 8080;/, `listen 127.0.0.1:${proxyPort};`)
    .replace(/\n\s*listen \[::\]:8080;/, '')
    .replaceAll('/etc/nginx/parley/', `${dir}/`);
  await writeFile(path.join(dir, 'proxy-headers.conf'), await readFile(path.join(root, 'deploy/nginx/proxy-headers.conf')));
  await writeFile(path.join(dir, 'site.conf'), site);
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
      `  include ${dir}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
}

export function nginxPath(): string {
  for (const p of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx']) if (p && spawnSync(p, ['-v']).status === 0) return p;
  throw new Error('nginx is not installed: apt-get install -y nginx (.ci/run installs it)');
}

/**
 * Each process runs as `npm start` does (the server bundle, built first if older than the sources,
 * with its Node flags): what a deployment's memory and CPU look like, and half the CPU of a start
 * from the sources through tsx: a restart must be healthy in time on a CI machine busy with browsers.
 */
export async function startCluster(opts: { basePort?: number; logLevel?: string } = {}): Promise<Cluster> {
  await ensureServerBuild();
  const base = opts.basePort ?? Number(process.env.CLUSTER_TEST_PORT ?? 4700);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'parley-cluster-'));
  const id = randomBytes(5).toString('hex');
  const { url: dbUrl, drop } = await testPostgres(`cluster_${id}`);
  if (!dbUrl || !process.env.REDIS_URL) throw new Error('the cluster needs DATABASE_URL and REDIS_URL');
  const prefix = `cluster${id}:`;
  const jwtSecret = randomBytes(32).toString('base64url');
  const tokens = accessTokens(new TextEncoder().encode(jwtSecret));
  const accounts = accountWriter(dbUrl);
  const procs: ApiProcess[] = [];
  let nextPort = base;

  const spawnOn = (port: number) => {
    const args = [...startNodeFlags(root), 'scripts/start.mjs'];
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl,
        REDIS_URL: process.env.REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        JWT_SECRET: jwtSecret,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dir,
        SERVE_PWA: 'false',
        PEERJS_MOUNT: 'false',
        TRUST_PROXY: 'true',
        LOG_LEVEL: opts.logLevel ?? 'warn',
        SKIP_PWA_BUILD: 'true',
      },
      // CLUSTER_KEEP_DIR: each process's log (stdout) goes to a file there too.
      stdio: ['ignore', process.env.CLUSTER_KEEP_DIR ? 'pipe' : 'ignore', 'inherit'],
    });
    if (child.stdout) child.stdout.pipe(createWriteStream(path.join(dir, `api-${port}.log`), { flags: 'a' }));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited };
  };
  const add = async () => {
    const port = await freePort(nextPort);
    nextPort = port + 1;
    const proc: ApiProcess = { port, url: `http://127.0.0.1:${port}`, ...spawnOn(port) };
    procs.push(proc);
    await waitHealthy(proc.url, proc.child);
    return proc;
  };
  const restart = async (proc: ApiProcess) => {
    const stopping = Date.now();
    proc.child.kill('SIGTERM');
    const code = await proc.exited;
    const stopMs = Date.now() - stopping;
    Object.assign(proc, spawnOn(proc.port));
    await waitHealthy(proc.url, proc.child);
    return { code, stopMs };
  };

  // One at a time: the first applies the migrations.
  await add();
  await add();
  const proxyPort = await freePort(nextPort);
  nextPort = proxyPort + 1;
  await nginxConfig(dir, proxyPort, [procs[0]!.port, procs[1]!.port]);
  const nginx = spawn(nginxPath(), ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  await waitHealthy(proxyUrl, nginx);

  return {
    proxyUrl,
    prefix,
    jwtSecret,
    dbUrl,
    procs,
    add,
    restart,
    async token(user) {
      await accounts.add(user);
      return tokens.sign(user);
    },
    async close() {
      nginx.kill('SIGTERM');
      await accounts.close();
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.exited));
      await drop?.();
      // CLUSTER_KEEP_DIR: nginx's error log and configuration stay for a look after a failure.
      if (process.env.CLUSTER_KEEP_DIR) console.error(`cluster files kept in ${dir}`);
      else await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Accounts for the users a test or bench makes up (testing/accounts.ts); those asked in the same turn are written together. */
function accountWriter(dbUrl: string) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  let batch: { users: TokenUser[]; written: Promise<void> } | undefined;
  return {
    add(user: TokenUser): Promise<void> {
      if (!batch) {
        const b: { users: TokenUser[]; written: Promise<void> } = { users: [], written: Promise.resolve() };
        b.written = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
          if (batch === b) batch = undefined;
          await pool.query(INSERT_ACCOUNTS, accountParams(b.users));
        });
        batch = b;
      }
      batch.users.push(user);
      return batch.written;
    },
    close: () => pool.end(),
  };
}

/**
 * A client of the cluster through the proxy, as the PWA connects (a tab id, so a reconnection
 * takes its chat back). nginx pins socket.io by client address (ip_hash, the first three octets):
 * `address` picks the local address, so tests can put clients on either process.
 */
export function connect(
  url: string,
  token: string,
  user: TokenUser,
  opts: { tab?: string; address?: string; reconnection?: boolean; query?: Record<string, string> } = {},
): Socket {
  return ioClient(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: opts.reconnection ?? false,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
    reconnectionAttempts: 5,
    auth: { token, protocol: REALTIME_PROTOCOL },
    query: { userId: user.userId, username: user.username, ...(opts.tab ? { tab: opts.tab } : {}), ...opts.query },
    ...(opts.address ? { localAddress: opts.address } : {}),
  } as Parameters<typeof ioClient>[1]);
}

/** Someone to open a probing socket as (the cluster's tokens make their account). */
function clusterPerson(): TokenUser {
  const userId = randomUUID();
  return { userId, username: `u${userId.slice(0, 8)}`, avatar: '', gender: 'male', age: 30, isVerified: true, premiumUser: 'free tier' };
}

/**
 * A test file's clients of a started cluster: a Redis client on its presence records, the process
 * (instance) each socket is in, and sockets put through the proxy on a chosen process. `close`
 * ends it all: the sockets opened here, the cluster, and the cluster's Redis keys.
 */
export function clusterClients(cluster: Cluster) {
  const redis = createRedis(process.env.REDIS_URL!);
  const opened: Socket[] = [];
  const instances = new Map<ApiProcess, string>();
  /** Local addresses the proxy (ip_hash) sends to each instance, found once. */
  const addressFor = new Map<string, string>();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** The instance (process) holding a socket, from the presence records in Redis. */
  async function homeOf(socketId: string, ms = 3000): Promise<string> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      for (const key of await redis.keys(`${cluster.prefix}pr:sockets:*`)) {
        if (await redis.hexists(key, socketId)) return key.slice(`${cluster.prefix}pr:sockets:`.length);
      }
      await sleep(50);
    }
    throw new Error(`socket ${socketId} is in no process`);
  }

  /** Keeps the socket to disconnect at `close`; answers it once connected. */
  function open(s: Socket): Promise<Socket> {
    opened.push(s);
    return new Promise((resolve, reject) => {
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  }

  /** The instance id of a process: where a socket opened on it directly is. */
  async function instanceOf(proc: ApiProcess): Promise<string> {
    const known = instances.get(proc);
    if (known) return known;
    const u = clusterPerson();
    const s = await open(connect(proc.url, await cluster.token(u), u));
    const id = await homeOf(s.id!);
    s.disconnect();
    instances.set(proc, id);
    return id;
  }

  /** A client through the proxy that landed on `proc`: local addresses are tried until the proxy sends one there. */
  async function throughProxy(proc: ApiProcess, user: TokenUser, opts: { tab?: string; reconnection?: boolean } = {}): Promise<Socket> {
    const want = await instanceOf(proc);
    const token = await cluster.token(user);
    const known = addressFor.get(want);
    if (known) return open(connect(cluster.proxyUrl, token, user, { ...opts, address: known }));
    for (let n = 0; n < 64; n++) {
      const address = `127.0.${n}.1`;
      const s = await open(connect(cluster.proxyUrl, token, user, { ...opts, address }));
      const home = await homeOf(s.id!);
      addressFor.set(home, address);
      if (home === want) return s;
      s.disconnect();
    }
    throw new Error('the proxy sent no client to that process');
  }

  /** A local address the proxy sends to `proc` (it stays that process's across restarts: ip_hash picks the upstream). */
  async function proxyAddressOf(proc: ApiProcess): Promise<string> {
    (await throughProxy(proc, clusterPerson())).disconnect();
    return addressFor.get(await instanceOf(proc))!;
  }

  return {
    cluster,
    redis,
    homeOf,
    open,
    instanceOf,
    throughProxy,
    proxyAddressOf,
    /** Disconnects every socket opened so far (between tests that count who is online). */
    disconnectAll() {
      for (const s of opened.splice(0)) s.disconnect();
    },
    async close() {
      for (const s of opened) s.disconnect();
      await cluster.close();
      const keys = await redis.keys(`${cluster.prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await closeRedis(redis);
    },
  };
}
export type ClusterClients = ReturnType<typeof clusterClients>;
