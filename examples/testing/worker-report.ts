/**
 * CI plumbing, not part of the examples' lesson: when
 * WATCHMARK_RUNNER_REPORT names a file, each example file appends which
 * worker (process and thread) ran it and when, so test/examples/runners.test.ts
 * can check the runner really ran files in parallel workers.
 */
import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

/** One line of the report. */
export interface WorkerRecord {
  file: string;
  pid: number;
  threadId: number;
  /** When the worker (process or thread) started: jest reuses a worker for several files, node:test and vitest's isolated threads do not. */
  start: number;
  end: number;
}

/** Records the file's worker; `afterAll` is the runner's (node:test: `after`). */
export function reportWorker(moduleUrl: string, afterAll: (fn: () => void) => unknown): void {
  const out = process.env.WATCHMARK_RUNNER_REPORT;
  if (!out) return;
  // The worker's start: a test file's imports load before any of its code runs.
  const start = Math.round(performance.timeOrigin);
  afterAll(() => {
    const record: WorkerRecord = {
      file: basename(fileURLToPath(moduleUrl)),
      pid: process.pid,
      threadId,
      start,
      end: Date.now(),
    };
    appendFileSync(out, `${JSON.stringify(record)}\n`);
  });
}
