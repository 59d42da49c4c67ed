import { spawn, type ChildProcess } from 'node:child_process';
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
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, script)], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: 'inherit',
  });
  // A server of another spec on this port would answer the health check for ours: ours must still be running.
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  await expect
    .poll(
      () => {
        if (exited !== null) throw new Error(`the spec's own server on port ${port} exited (${exited}): is the port another spec's?`);
        return fetch(`${url}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 60_000 },
    )
    .toBe(200);
  // Once healthy it is ours only if it is still running (a busy port makes it exit at listen).
  await new Promise((r) => setTimeout(r, 200));
  if (exited !== null) throw new Error(`the spec's own server on port ${port} exited (${exited}): is the port another spec's?`);
  return {
    url,
    /** Stops it and waits until it has exited (its embedded database is free again). */
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
