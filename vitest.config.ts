import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // At least two files at once: most of them wait on servers, etcd, kubectl and child
    // processes, so vitest's default (one fewer than the cores: one, on a 2-core machine)
    // leaves a core idle. On 2 cores the suite took 840 s with one file at a time, 607 s with two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
