import { linguiPlugin } from './pwa/vite-plugin-lingui.ts';
import { defineConfig } from 'vitest/config';

const include = ['{contract,api,peer-server,pwa}/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'];
// Files that replace a module with `vi.mock` need a module registry of their own; every other
// file shares its worker's (importing the server once per worker, not once per file, halves the run).
const mocking = ['api/src/auth/passwords.test.ts', 'pwa/src/realtime/hostedRooms.test.ts'];

export default defineConfig({
  // The PWA's components are written with Lingui's macros; only files importing them are transformed.
  plugins: [linguiPlugin()],
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time even on two cores (Vitest's default there is one): most of a server
    // suite's time is waiting on its database thread, child processes and timers. CI's second
    // pass runs on one (VITEST_MAX_WORKERS=1) beside the browser tests.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    globalSetup: ['api/src/testing/globalSetup.ts'],
    // ioredis rejects a command cut off by a test server's Redis connection closing at teardown
    // (socket.io's Redis adapter publishes without awaiting). Only that exact teardown error is
    // ignored; any other unhandled error still fails the run.
    onUnhandledError(error) {
      return !(error.name === 'Error' && error.message === 'Connection is closed.');
    },
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: mocking, isolate: false } },
      { extends: true, test: { name: 'mocking', include: mocking, isolate: true } },
    ],
  },
});
