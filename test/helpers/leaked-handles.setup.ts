/**
 * The suite-wide leaked-handle check (vitest `setupFiles`): after each test file, the file
 * fails if it left open a handle it created (a ref'd timer, a socket, a server, a child
 * process), naming the resource types. Every async resource has an owner that closes it
 * (docs: conventions): a leak is a test or a module that forgot to.
 *
 * Per file, because the pool is `forks` with isolation: each test file runs in a process of
 * its own, this setup runs in it before the file is imported, and the count taken here is the
 * file's starting point. Its afterAll is registered first, so it runs after every afterAll
 * of the file (hooks run in stack order).
 */
import { relative } from 'node:path';
import { afterAll } from 'vitest';
import { activeResources, describeLeaks, leaksAfterGrace } from './leaked-handles.js';

/**
 * Files whose leaks are known and not theirs to fix, each with the resource types it may leave
 * and why (the module in src/ that leaves it, reported to its owner). A type listed here is
 * only excused for that file.
 */
const ALLOWED_LEAKS: Readonly<Record<string, { types: readonly string[]; why: string }>> = {};

// The process's own stdout and stderr are made on first use (a Readable's pipe() reads
// process.stdout to compare with its destination), and then stay open on the list: they are the
// process's, not a leak of the file that happened to touch them first, so they are made here.
void process.stdout;
void process.stderr;
const before = activeResources();

afterAll(async (file) => {
  const path = relative(process.cwd(), 'filepath' in file ? file.filepath : '');
  const allowed = ALLOWED_LEAKS[path]?.types ?? [];
  const leaked = await leaksAfterGrace(before, { graceMs: 2_000, allowed });
  if (leaked.size > 0)
    throw new Error(
      `${path} left open what it created: ${describeLeaks(leaked)} ` +
        '(process.getActiveResourcesInfo() against the start of the file, 2 s after its last hook): ' +
        'close each in an afterEach/afterAll, or unref a timer that must outlive the file',
    );
}, 10_000);
