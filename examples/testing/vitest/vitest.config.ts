// vitest for the examples: test files in parallel worker threads (pool
// 'forks' works the same: each file gets its own cluster either way).
// Run from the repository root:
//   npx vitest run --config examples/testing/vitest/vitest.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    pool: 'threads',
    poolOptions: { threads: { minThreads: 2, maxThreads: 2 } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
