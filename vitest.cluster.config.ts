import { defineConfig } from 'vitest/config';

// The cluster test (several API processes behind nginx): run by `npm test` only when DATABASE_URL
// and REDIS_URL are set (scripts/test.mjs), one file at a time as it starts processes of its own.
export default defineConfig({
  test: {
    include: ['api/src/**/*.cluster.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
