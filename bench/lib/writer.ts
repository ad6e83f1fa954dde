/**
 * The load: JSON merge patches of one annotation on pre-created pods, each
 * stamped with its phase tag and send time so the watch side can count and
 * time it. Two shapes: as fast as bounded concurrency allows (saturated), and
 * a fixed rate (open loop: a slow server does not slow the schedule down).
 */
import type { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { httpCall } from '../../support/http.js';
import { STAMP_ANNOTATION } from './watch-fleet.js';

/** The pods a writer cycles through, ordered so consecutive writes land on different nodes. */
export interface PodTarget {
  name: string;
  node: number;
}

/** What a writer did. */
export interface WriteResult {
  /** Writes the server accepted (HTTP 200). */
  writes: number;
  /** Of those, writes to pods whose node has an open node watcher (each owes it one event). */
  writesToWatchedNodes: number;
  errors: number;
  firstError: string | undefined;
  /** From the first send to the last answer (ms). */
  elapsedMs: number;
  /** Fixed rate only: the most writes in flight at once, and the worst lateness of a send (ms). */
  maxInFlight: number;
  maxLagMs: number;
}

/** Where and how to write. */
export interface WriterTarget {
  agent: Agent;
  baseUrl: string;
  namespace: string;
  pods: PodTarget[];
  /** Whether node `i` has an open node watcher. */
  nodeWatched(node: number): boolean;
}

class Writes {
  readonly result: WriteResult = {
    writes: 0,
    writesToWatchedNodes: 0,
    errors: 0,
    firstError: undefined,
    elapsedMs: 0,
    maxInFlight: 0,
    maxLagMs: 0,
  };
  private next = 0;
  private readonly target: WriterTarget;
  private readonly tag: string;

  constructor(target: WriterTarget, tag: string) {
    this.target = target;
    this.tag = tag;
  }

  /** Patches the next pod in the cycle; never rejects (failures are counted). */
  async one(): Promise<void> {
    const { target, tag, result } = this;
    const pod = target.pods[this.next++ % target.pods.length];
    const body = `{"metadata":{"annotations":{"${STAMP_ANNOTATION}":"${tag}:${performance.now().toFixed(3)}"}}}`;
    try {
      const answer = await httpCall(
        target.agent,
        target.baseUrl,
        'PATCH',
        `/api/v1/namespaces/${target.namespace}/pods/${pod.name}`,
        body,
        'application/merge-patch+json',
      );
      if (answer.status === 200) {
        result.writes++;
        if (target.nodeWatched(pod.node)) result.writesToWatchedNodes++;
        return;
      }
      this.fail(`HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
    } catch (err) {
      this.fail((err as Error).message);
    }
  }

  private fail(message: string): void {
    this.result.errors++;
    this.result.firstError ??= message;
  }
}

/** Writes as fast as `concurrency` writers in a loop can, for `durationMs`. */
export async function writeSaturated(
  target: WriterTarget,
  tag: string,
  durationMs: number,
  concurrency: number,
): Promise<WriteResult> {
  const writes = new Writes(target, tag);
  const start = performance.now();
  const deadline = start + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) await writes.one();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  writes.result.elapsedMs = performance.now() - start;
  writes.result.maxInFlight = concurrency;
  return writes.result;
}

/**
 * Sends `rate` writes per second for `durationMs`, on schedule whatever the
 * answers: each tick sends every write that is due. `maxInFlight` bounds
 * the backlog; a write that would exceed it is counted as an error.
 */
export async function writeFixedRate(
  target: WriterTarget,
  tag: string,
  rate: number,
  durationMs: number,
  maxInFlight = 512,
): Promise<WriteResult> {
  const writes = new Writes(target, tag);
  const total = Math.round((rate * durationMs) / 1000);
  const interval = 1000 / rate;
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor((now - start) / interval) + 1);
    for (; sent < due; sent++) {
      writes.result.maxLagMs = Math.max(writes.result.maxLagMs, now - (start + sent * interval));
      if (inFlight.size >= maxInFlight) {
        writes.result.errors++;
        writes.result.firstError ??= `more than ${maxInFlight} writes in flight: the server fell behind`;
        continue;
      }
      const p = writes.one().finally(() => inFlight.delete(p));
      inFlight.add(p);
      writes.result.maxInFlight = Math.max(writes.result.maxInFlight, inFlight.size);
    }
    if (sent < total) {
      const wait = start + sent * interval - performance.now();
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));
    }
  }
  await Promise.all(inFlight);
  writes.result.elapsedMs = performance.now() - start;
  return writes.result;
}
