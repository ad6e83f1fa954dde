/**
 * The leaked-handle check (test/helpers/leaked-handles.ts, run after every test file by
 * leaked-handles.setup.ts) catches what a file leaves open, names its type, waits out a
 * handle that is closing, and leaves unref'd ones alone.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { activeResources, describeLeaks, leakedSince, leaksAfterGrace } from './helpers/leaked-handles.js';

describe('the leaked-handle check', () => {
  it('names a timer left running, and nothing once it is cleared', async () => {
    const before = activeResources();
    const timer = setInterval(() => {}, 1_000);
    try {
      expect(describeLeaks(leakedSince(before))).toBe('Timeout x1');
    } finally {
      clearInterval(timer);
    }
    expect(await leaksAfterGrace(before, { graceMs: 100 })).toEqual(new Map());
  });

  it('leaves an unref-d timer alone: it keeps nothing alive', async () => {
    const before = activeResources();
    const timer = setInterval(() => {}, 1_000).unref();
    try {
      expect(await leaksAfterGrace(before, { graceMs: 50 })).toEqual(new Map());
    } finally {
      clearInterval(timer);
    }
  });

  it('names a listening server, and waits for one being closed instead of failing at once', async () => {
    const before = activeResources();
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect([...(await leaksAfterGrace(before, { graceMs: 50 })).keys()]).toEqual(['TCPServerWrap']);
    // Not awaited: still on the list for a moment after close() returns, which the grace absorbs.
    server.close();
    expect(await leaksAfterGrace(before, { graceMs: 2_000 })).toEqual(new Map());
  });

  it('names a child process left running', async () => {
    const before = activeResources();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)'], { stdio: 'ignore' });
    try {
      const leaked = await leaksAfterGrace(before, { graceMs: 100 });
      expect(leaked.get('ProcessWrap')).toBe(1);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    }
    expect(await leaksAfterGrace(before, { graceMs: 2_000 })).toEqual(new Map());
  });

  it('counts by type against the start, and excuses only the allowed types', () => {
    const before = new Map([
      ['Timeout', 2],
      ['PipeWrap', 1],
    ]);
    const now = new Map([
      ['Timeout', 3],
      ['PipeWrap', 1],
      ['TCPSocketWrap', 2],
    ]);
    expect(leakedSince(before, now)).toEqual(
      new Map([
        ['Timeout', 1],
        ['TCPSocketWrap', 2],
      ]),
    );
    expect(leakedSince(before, now, ['TCPSocketWrap'])).toEqual(new Map([['Timeout', 1]]));
    expect(leakedSince(now, before)).toEqual(new Map());
  });

  it('fails a whole test file that leaves a timer running, naming it (the vitest setup, in a subprocess)', async () => {
    // vitest's node API on one fixture file, without this repository's config (whose include
    // would not take it), with the same setup file.
    const script = `
      import { startVitest } from 'vitest/node';
      const ctx = await startVitest('test', [], {
        config: false, watch: false, pool: 'forks', reporters: ['default'],
        include: ['test/helpers/fixtures/leaky-file.fixture.ts'],
        setupFiles: ['test/helpers/leaked-handles.setup.ts'],
      });
      await ctx?.close();`;
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NO_COLOR: '1', CI: '' },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, output: '' }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: err.code,
        output: `${err.stdout ?? ''}${err.stderr ?? ''}`,
      }),
    );
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      'test/helpers/fixtures/leaky-file.fixture.ts left open what it created: Timeout x1',
    );
  }, 60_000);
});
