/**
 * kube-apiserver's default ServiceCIDR controller after start
 * (pkg/controlplane/controller/defaultservicecidr, `kubernetes-service-cidr-controller`): every
 * 10 s the ServiceCIDR `kubernetes` of the server's service range is looked for and created again
 * when it went, its Ready condition applied, so a deleted one is back within that period, as on
 * the reference (where no controller manager holds it with its finalizer). The writing itself is
 * the start-up writer's (bootstrap/default-service-cidr.ts, handed in by the server, so this room
 * imports no bootstrap code).
 */
import type { Clock, TimerHandle } from '../../protocol/clock.js';
import type { Cacher } from '../cache/cacher.js';
import { findByPlural } from '../kinds/served/registry.js';
import type { ObjectStorage } from '../registry/object-storage.js';

/** The controller's period (`interval`: the endpoint reconciler's 10 s). */
export const DEFAULT_SERVICE_CIDR_PERIOD_MS = 10_000;

/** What the controller works with. */
export interface DefaultServiceCIDRDeps {
  objects: ObjectStorage;
  cacher: Cacher;
  clock: Clock;
  log: (message: string) => void;
  /** Creates the default ServiceCIDR when it is missing (and applies its Ready condition). */
  ensure: (objects: ObjectStorage) => Promise<void>;
}

/** Looks for the default ServiceCIDR every {@link DEFAULT_SERVICE_CIDR_PERIOD_MS}. */
export class DefaultServiceCIDRController {
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: DefaultServiceCIDRDeps) {}

  /** Starts the period (the start-up writers created it once). */
  start(): void {
    this.schedule();
  }

  /** Stops the period; a creation under way finishes first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.running = this.sync()
        // Upstream logs and tries again on its next period.
        .catch((err: unknown) =>
          this.deps.log(`error trying to sync the default ServiceCIDR: ${(err as Error).message}`),
        )
        .finally(() => this.schedule());
    }, DEFAULT_SERVICE_CIDR_PERIOD_MS);
  }

  /** `sync`: nothing while the cache holds it; else the writer, which leaves one that exists. */
  private async sync(): Promise<void> {
    const kind = findByPlural('networking.k8s.io', 'v1', 'servicecidrs');
    if (!kind || this.deps.cacher.cached(kind, undefined, 'kubernetes')) return;
    await this.deps.ensure(this.deps.objects);
  }
}
