import type { Clock, TimerHandle } from '../../protocol/clock.js';
import { Compactor } from './compaction.js';
import type { Store } from './types.js';

/** What the loop needs of the server that runs it. */
export interface CompactionLoopOptions {
  store: Store;
  clock: Clock;
  /** `--compaction-interval` in ms; 0 or less runs no loop. */
  intervalMs: number;
  /** Runs a tick as the server's background work, which logs its failure and is waited for at close. */
  runInBackground(what: string, work: () => Promise<void>): void;
}

/**
 * kube-apiserver's compaction loop (storage/etcd3/compact.go `compactor.runCompactLoop`): a
 * {@link Compactor} tick every interval, for as long as the server runs. Each tick compacts to
 * the revision the previous one saw, so exact reads and continue tokens stay valid for one whole
 * interval.
 */
export class CompactionLoop {
  private compactor: Compactor;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly opts: CompactionLoopOptions) {
    this.compactor = new Compactor(opts.store);
  }

  /** Schedules the first tick (none when the interval is 0). */
  start(): void {
    if (this.opts.intervalMs > 0) this.schedule();
  }

  /** Forgets the next target: after a restore it is a revision of a history that is gone. */
  reset(): void {
    this.compactor = new Compactor(this.opts.store);
  }

  /** No tick after this one (a tick under way finishes as background work). */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private schedule(): void {
    this.timer = this.opts.clock.setTimeout(() => {
      this.opts.runInBackground('compaction', () => this.compactor.tick());
      if (!this.stopped) this.schedule();
    }, this.opts.intervalMs);
  }
}
