/**
 * kube-apiserver's APF configuration producer after start (pkg/registry/flowcontrol/rest
 * storage_flowcontrol.go `ensureAPFBootstrapConfiguration`): once a minute the mandatory and
 * suggested PriorityLevelConfigurations and FlowSchemas are ensured again, so a deleted one
 * (even `exempt` or `catch-all`) is back within a minute, as on the reference. The ensuring
 * itself is the start-up writer's (bootstrap/flowcontrol-config.ts, handed in by the server, so
 * this room imports no bootstrap code): it also puts back the spec of a bootstrap object a user
 * changed, while its `apf.kubernetes.io/autoupdate-spec` annotation stays true or it is mandatory,
 * and deletes auto-updating objects outside the bootstrap set (bootstrap/flowcontrol-ensure.ts).
 */
import type { Clock, TimerHandle } from '../../protocol/clock.js';
import type { ObjectStorage } from '../registry/object-storage.js';

/** The period of the reference's ensurer (`wait.PollImmediateUntil(time.Minute, ...)`). */
export const APF_ENSURE_PERIOD_MS = 60_000;

/** What the producer works with. */
export interface ApfConfigProducerDeps {
  objects: ObjectStorage;
  clock: Clock;
  log: (message: string) => void;
  /** Creates the bootstrap configuration's missing objects. */
  ensure: (objects: ObjectStorage) => Promise<void>;
}

/** Ensures the bootstrap APF configuration every {@link APF_ENSURE_PERIOD_MS}. */
export class ApfConfigProducer {
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: ApfConfigProducerDeps) {}

  /** Starts the period (the start-up writers already ensured it once). */
  start(): void {
    this.schedule();
  }

  /** Stops the period; an ensuring under way finishes first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.running = this.deps
        .ensure(this.deps.objects)
        // The ensurer logs and tries again on its next period.
        .catch((err: unknown) =>
          this.deps.log(`APF bootstrap ensurer ran into error, will retry later: ${(err as Error).message}`),
        )
        .finally(() => this.schedule());
    }, APF_ENSURE_PERIOD_MS);
  }
}
