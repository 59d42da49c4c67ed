import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { e2ePort } from '../playwright.config';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A server of a spec's own (its own port, E2E_PORT + `offset`, after the workers' shared servers), started as the e2e server
 * is but with `env` added: for configurations the shared server does not have (Stripe, TURN…).
 */
export async function startOwnServer(offset: number, env: Record<string, string>, script = 'scripts/e2e-server.mjs') {
  const port = e2ePort(offset);
  const url = `http://localhost:${port}`;
  // A server already on this port (another spec's, or one an earlier run left) would answer the
  // health check for ours, and the spec would talk to a server with someone else's settings.
  if (!(await portFree(port))) throw new Error(`port ${port} is in use: another spec's server, or one left running by an earlier run?`);
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, script)], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: 'inherit',
  });
  let exited: number | null = null;
  // A worker that ends (a hook out of time, a run stopped) takes its server with it.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  child.once('exit', (code) => {
    exited = code ?? -1;
    process.off('exit', orphaned);
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    // A fresh database and the server's start: seconds alone, up to a minute or two on a busy machine.
    await expect
      .poll(
        () => {
          if (exited !== null) throw new Error(`the spec's own server on port ${port} exited (${exited})`);
          return fetch(`${url}/api/health`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 110_000 },
      )
      .toBe(200);
  } catch (err) {
    // Not left running: a retry of the spec starts its own on the same port.
    await stop();
    throw err;
  }
  return {
    url,
    /** Stops it and waits until it has exited (its embedded database is free again). */
    stop,
  };
}

/** Whether nothing listens on `port` (every address, as the server binds). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .listen(port, () => probe.close(() => resolve(true)));
  });
}
