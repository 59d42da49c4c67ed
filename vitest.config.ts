import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contract,api,peer-server,pwa}/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
