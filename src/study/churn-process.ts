/**
 * Parent side of the study's churn writer (churn-child.ts): the pod writes
 * come from a process of their own, so that their CPU is billed neither to
 * the server nor to the watchers, and a watcher's stall (a garbage
 * collection of 5,000 informers) never delays a write, nor a write a
 * watcher. The run that spawns it owns it and closes it on every path; the
 * process plumbing is src/process.
 */
import { forkServer, waitUntil } from '../process/index.js';
import { packageScript } from '../protocol/package-files.js';
import type { ChurnOptions, ChurnStats } from './churn.js';
import type { Layout } from './options.js';

/** The churn writer's counters at one instant. */
export interface ChurnSample {
  /** CPU time (user + system) of the writer's process so far, in µs. */
  cpuUs: number;
  /** Writes done (successful or not), and sent but not yet answered. */
  writes: number;
  inFlight: number;
  stats: ChurnStats;
  /** Stopped and every write answered. */
  drained: boolean;
}

/** What the child needs to write: the server's kubeconfig, the layout, the churn's options. */
export interface ChurnChildOptions {
  kubeconfig: string;
  layout: Layout;
  churn: Omit<ChurnOptions, 'onError'>;
}

/** A running churn writer. Messages are ordered: a sample sees every message sent before it. */
export interface ChurnWriter {
  /** Starts the schedule. */
  start(): void;
  /** Starts the peaks of in-flight writes and write latency over (at a run's baseline). */
  resetPeak(): void;
  sample(): Promise<ChurnSample>;
  /** Stops the schedule and resolves with the sample once every write is answered. */
  stop(): Promise<ChurnSample>;
  /** Stops the writer and waits for its process to exit. */
  close(): Promise<void>;
}

/** Forks the churn writer; resolves once it is connected and ready to start. */
export async function spawnChurnWriter(options: ChurnChildOptions): Promise<ChurnWriter> {
  const script = packageScript('study/churn-child');
  const child = await forkServer<ChurnSample>({
    script: script.path,
    execArgv: script.execArgv,
    env: { WATCHMARK_STUDY_CHURN: JSON.stringify(options) },
    startTimeoutMs: 30_000,
    label: 'churn writer',
  });
  return {
    start: () => child.send({ type: 'start' }),
    resetPeak: () => child.send({ type: 'reset-peak' }),
    sample: () => child.sample(),
    async stop() {
      child.send({ type: 'stop' });
      // No deadline of its own: each sample has one, and a writer that stops answering fails it.
      return waitUntil(
        async () => {
          const s = await child.sample();
          return s.drained ? s : undefined;
        },
        'the churn writer to drain',
        { intervalMs: 20 },
      );
    },
    close: () => child.close(),
  };
}
