import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each test file in a process of its own (forks, isolated): the leaked-handle check counts
    // what one file left open against what its process held before the file ran.
    pool: 'forks',
    setupFiles: ['test/helpers/leaked-handles.setup.ts'],
    // At least two files at once: most of them wait on servers, etcd, kubectl and child
    // processes, so vitest's default (one fewer than the cores: one, on a 2-core machine)
    // leaves a core idle. On 2 cores the suite took 840 s with one file at a time, 607 s with two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
