import { linguiPlugin } from './pwa/vite-plugin-lingui.ts';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The PWA's components are written with Lingui's macros; only files importing them are transformed.
  plugins: [linguiPlugin()],
  test: {
    include: ['{contract,api,peer-server,pwa}/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['api/src/testing/globalSetup.ts'],
    // ioredis rejects a command cut off by a test server's Redis connection closing at teardown
    // (socket.io's Redis adapter publishes without awaiting). Only that exact teardown error is
    // ignored; any other unhandled error still fails the run.
    onUnhandledError(error) {
      return !(error.name === 'Error' && error.message === 'Connection is closed.');
    },
  },
});
