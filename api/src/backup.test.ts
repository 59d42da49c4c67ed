import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesPass } from './testing/passes.ts';
import { loadConfig } from './platform/config.ts';
import { repoRoot } from './platform/paths.ts';
import { startServer, type RunningServer } from './server.ts';
import { seedPgliteDataDir } from './testing/pgliteTemplate.ts';
import type { TestServer } from './testing/server.ts';
import { storedRoomRig } from './testing/storedRoomRig.ts';

const run = promisify(execFile);

/** `npm run backup` / `npm run restore` as an operator runs them (the same command line), with DATA_DIR set. */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'api/src/platform/backupCli.ts', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'test' },
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

/** A server on the embedded database in `dataDir`, which survives its close (unlike the test server's). */
async function serverOn(dataDir: string): Promise<RunningServer & { api: TestServer['api'] }> {
  const cfg = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SERVE_PWA: 'false', LOG_LEVEL: 'silent' });
  const server = await startServer(cfg, { log: pino({ level: 'silent' }) });
  return {
    ...server,
    api: (p, init = {}) => {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set('content-type', 'application/json');
      return fetch(server.url + p, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
    },
  };
}

describe.skipIf(servicesPass)('npm run backup / npm run restore (embedded database)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'parley-backup-test-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('refuses while Parley runs, backs up once stopped, and restores into a fresh DATA_DIR with its accounts, rooms and messages', async () => {
    const source = path.join(work, 'source');
    await seedPgliteDataDir(source);
    const server = await serverOn(source);
    let roomId: string;
    let ownerToken: string;
    try {
      const rig = storedRoomRig(
        () => server as unknown as TestServer,
        () => Promise.reject(new Error('no sockets here')),
      );
      const owner = await rig.account('own');
      const guest = await rig.account('gu');
      const room = await rig.createRoom(owner, { name: 'Kept safe' });
      roomId = room.roomId;
      ownerToken = owner.token;
      expect((await rig.join(guest, roomId)).status).toBe(200);
      await rig.seed(roomId, owner.userId, ['first words', 'second words']);

      const running = await cli(source, 'backup', path.join(work, 'while-running.tar.gz'));
      expect(running.code).toBe(1);
      expect(running.out).toMatch(/stop Parley first/);
    } finally {
      await server.close();
    }

    const file = path.join(work, 'nightly.tar.gz');
    const made = await cli(source, 'backup', file);
    expect(made.out).toContain('Backed up');
    expect(made.code).toBe(0);
    // The generated secrets are in it: the owner's alone.
    expect((await stat(file)).mode & 0o077).toBe(0);

    const fresh = path.join(work, 'fresh');
    const restored = await cli(fresh, 'restore', file);
    expect(restored.code).toBe(0);
    // The two accounts and two messages made above; the rooms are this one and those the migrations create.
    const counted = restored.out.match(/(\d+) accounts, (\d+) rooms, (\d+) messages/);
    expect(counted?.slice(1).map(Number)).toEqual([2, expect.any(Number), 2]);
    expect(Number(counted![2])).toBeGreaterThanOrEqual(1);

    // A restore never overwrites a database unasked.
    const again = await cli(fresh, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/not empty/);

    // The restored server knows the room, its messages, and the owner's signature (the secrets came along).
    const back = await serverOn(fresh);
    try {
      const auth = { authorization: `Bearer ${ownerToken}` };
      const detail = await back.api(`/api/groups/${roomId}`, { headers: auth });
      expect(detail.status).toBe(200);
      expect(((await detail.json()) as { name: string }).name).toBe('Kept safe');
      const page = await back.api(`/api/rooms/${roomId}/messages?limit=10`, { headers: auth });
      expect(page.status).toBe(200);
      const texts = ((await page.json()) as { messages: Array<{ text: string }> }).messages.map((m) => m.text);
      expect(texts).toEqual(['first words', 'second words']);
    } finally {
      await back.close();
    }
    // Three servers' starts and two command lines, each opening the embedded database, on a busy machine.
  }, 180_000);

  it('refuses what is not a Parley backup, and sends PostgreSQL to pg_dump', async () => {
    const junk = path.join(work, 'junk.tar.gz');
    await run('sh', ['-c', `echo hi > "${work}/x" && tar -czf "${junk}" -C "${work}" x`]);
    const r = await cli(path.join(work, 'other'), 'restore', junk);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/not a Parley backup/);

    const pg = await run(process.execPath, ['--import', 'tsx', 'api/src/platform/backupCli.ts', 'backup'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/none' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect((pg as { code: number }).code).toBe(2);
    expect((pg as { stderr: string }).stderr).toMatch(/pg_dump/);
  }, 60_000);
});
