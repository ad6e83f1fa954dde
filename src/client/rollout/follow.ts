/**
 * Following Deployments through a rollout together with the Events that
 * explain it: informers (with bookmarks) on Events, ReplicaSets, Pods and
 * Deployments of each namespace. Informers, not one-off watches, so a
 * dropped watch resumes from its last bookmark and a 410 relists without
 * losing state; every event occurrence (uid + count) is shown exactly once
 * however often a relist or resume re-delivers it.
 */
import { type Clock, sleep, systemClock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { KubeClient } from '../client.js';
import type { Informer, InformerOptions } from '../informer/informer.js';
import type { WatcherMetrics } from '../watch/metrics.js';
import { deploymentStatus } from './deployment.js';
import { type CoreEvent, eventTimeMs, involvedRef, OwnershipIndex, occurrenceKey } from './events.js';
import type { RolloutStatus } from './status.js';
import { RolloutAbortedError, RolloutDeletedError } from './watch.js';

/** The first failure of an informer before every informer had listed; `cause` is the error. */
export class FollowStartError extends Error {
  /** `resource/namespace` of the informer that failed. */
  readonly informer: string;

  constructor(informer: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'FollowStartError';
    this.informer = informer;
  }
}

/** A Deployment to follow; `uid` and `generation` come from the apply that started the rollout. */
export interface RolloutTarget {
  namespace: string;
  name: string;
  uid?: string;
  /** The generation written: older cached copies are not judged (they predate the change). */
  generation?: number;
}

/** An event shown for a target. */
export interface FollowedEvent {
  target: RolloutTarget;
  event: CoreEvent;
  /** `pod/web-6d4b7-x2x9z` */
  ref: string;
  timeMs: number | undefined;
}

/** How one target ended. */
export type TargetOutcome =
  | { target: RolloutTarget; ok: true; status: RolloutStatus }
  | { target: RolloutTarget; ok: false; error: Error; warnings: FollowedEvent[] };

/** Options of {@link RolloutFollower}. */
export interface FollowerOptions {
  /** Options of every informer (bookmarks, timing, logger). */
  informer?: InformerOptions<KubeObject>;
  /** Each related event occurrence, once, as it arrives. */
  onEvent?: (event: FollowedEvent) => void;
  /** Each status judged for a target (repeats included). */
  onStatus?: (target: RolloutTarget, status: RolloutStatus) => void;
  /**
   * Each failure of an informer after the first sync (the informer retries it), with
   * the informer's `resource/namespace`. Failures before the first sync fail `start()`.
   */
  onError?: (informer: string, err: unknown) => void;
  /** After the last target settles, how long to wait for the events watch to catch up (default 2 s). */
  drainMs?: number;
  clock?: Clock;
}

const WATCHED = ['events', 'replicasets', 'pods', 'deployments'] as const;
/** Events not yet attributable (their pod not seen yet) kept at most. */
const MAX_PENDING = 10_000;

interface TargetState {
  target: RolloutTarget;
  outcome?: TargetOutcome;
  lastResourceVersion?: string;
}

/**
 * Follows Deployments in a set of namespaces. `start()` before the change
 * (so no event of the rollout predates the baseline), `follow()` after it.
 */
export class RolloutFollower {
  /** Event occurrences shown. */
  shown = 0;
  /** Re-deliveries of an occurrence already shown or baselined (resumes, relists) that were skipped. */
  duplicatesSkipped = 0;
  private readonly opts: FollowerOptions;
  private readonly clock: Clock;
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly ownership = new OwnershipIndex();
  private readonly seen = new Set<string>();
  private pending: CoreEvent[] = [];
  private targets: TargetState[] = [];
  private readonly shownByTarget = new Map<TargetState, FollowedEvent[]>();
  private wake: (() => void) | undefined;
  /** Rejects `start()`: set while it waits for the first sync. */
  private failStart: ((err: Error) => void) | undefined;

  constructor(kube: KubeClient, namespaces: Iterable<string>, opts: FollowerOptions = {}) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    for (const namespace of new Set(namespaces)) {
      for (const resource of WATCHED) {
        const key = `${resource}/${namespace}`;
        const informer = kube.informer<KubeObject>(
          resource,
          { namespace },
          {
            ...opts.informer,
            onError: (err) => {
              opts.informer?.onError?.(err);
              this.failed(key, err);
            },
          },
        );
        this.informers.set(key, informer);
        this.wire(resource, informer);
      }
    }
  }

  /**
   * Starts every informer; resolves once all have listed (the events then
   * known are the baseline, not shown). Rejects with {@link FollowStartError}
   * at the first failure before that (unreachable server, TLS, auth, a 5xx):
   * following a rollout the command cannot see is no use. A 429 is waited
   * out, as the informers do.
   */
  async start(): Promise<void> {
    for (const informer of this.informers.values()) informer.start();
    const synced = Promise.all([...this.informers.values()].map((i) => i.synced()));
    try {
      await new Promise<void>((resolve, reject) => {
        this.failStart = reject;
        synced.then(() => resolve(), reject);
      });
    } finally {
      this.failStart = undefined;
    }
  }

  /**
   * Follows `targets` until each has rolled out or failed (resolves with
   * every outcome, in order), or `signal` fires (unsettled targets then end
   * with {@link RolloutAbortedError}).
   */
  async follow(targets: RolloutTarget[], signal?: AbortSignal): Promise<TargetOutcome[]> {
    this.targets = targets.map((target) => ({ target }));
    for (const t of this.targets) this.shownByTarget.set(t, []);
    this.retryPending();
    for (const t of this.targets) {
      const cached = this.informers
        .get(`deployments/${t.target.namespace}`)
        ?.get(`${t.target.namespace}/${t.target.name}`);
      if (cached) this.judge(t, cached);
    }
    const onAbort = () => {
      for (const t of this.targets)
        this.settle(t, {
          target: t.target,
          ok: false,
          error: new RolloutAbortedError(signal?.reason),
          warnings: this.warnings(t),
        });
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (this.targets.some((t) => !t.outcome))
        await new Promise<void>((resolve) => (this.wake = resolve));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (!signal?.aborted) await this.drain(signal);
    // Warnings gathered during the drain belong to the failure they explain.
    return this.targets.map((t) =>
      t.outcome!.ok ? t.outcome! : { ...t.outcome!, warnings: this.warnings(t) },
    );
  }

  /** Counters of every informer's watcher, by `resource/namespace`. */
  metrics(): Array<{ name: string; metrics: WatcherMetrics }> {
    return [...this.informers].map(([name, informer]) => ({ name, metrics: informer.watcher.metrics }));
  }

  /** Stops every informer. */
  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  private failed(informer: string, err: unknown): void {
    if (!this.failStart) {
      this.opts.onError?.(informer, err);
      return;
    }
    if (err instanceof StatusError && err.code === 429) return;
    this.failStart(new FollowStartError(informer, err));
  }

  private wire(resource: (typeof WATCHED)[number], informer: Informer<KubeObject>): void {
    switch (resource) {
      case 'events':
        informer.on({
          add: (e) => this.onEvent(e as CoreEvent, informer.isSynced),
          update: (_old, e) => this.onEvent(e as CoreEvent, informer.isSynced),
        });
        return;
      case 'replicasets':
      case 'pods': {
        const kind = resource === 'pods' ? 'Pod' : 'ReplicaSet';
        const record = (o: KubeObject) => {
          this.ownership.record(kind, o);
          if (this.pending.length > 0) this.retryPending();
        };
        informer.on({ add: record, update: (_old, o) => record(o) });
        return;
      }
      case 'deployments':
        informer.on({
          add: (d) => this.onDeployment(d),
          update: (_old, d) => this.onDeployment(d),
          delete: (d) => {
            for (const t of this.matching(d)) {
              this.settle(t, {
                target: t.target,
                ok: false,
                error: new RolloutDeletedError(`deployment ${JSON.stringify(t.target.name)} was deleted`),
                warnings: this.warnings(t),
              });
            }
          },
        });
    }
  }

  private onEvent(event: CoreEvent, live: boolean): void {
    const key = occurrenceKey(event);
    if (this.seen.has(key)) {
      this.duplicatesSkipped++;
      return;
    }
    if (!live) {
      // In the first list: it happened before the rollout began.
      this.seen.add(key);
      return;
    }
    if (!this.attribute(event)) {
      this.pending.push(event);
      if (this.pending.length > MAX_PENDING) this.pending.shift();
    }
  }

  /** Shows the event if it belongs to a target; false when that cannot be decided yet. */
  private attribute(event: CoreEvent): boolean {
    if (this.targets.length === 0) return false;
    const uid = this.ownership.deploymentOf(event, (ns, name) => this.deploymentUid(ns, name));
    if (uid === undefined) return false;
    const state = this.targets.find(
      (t) =>
        t.target.uid === uid ||
        (!t.target.uid && this.deploymentUid(t.target.namespace, t.target.name) === uid),
    );
    const key = occurrenceKey(event);
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    if (!state) return true;
    const followed: FollowedEvent = {
      target: state.target,
      event,
      ref: involvedRef(event),
      timeMs: eventTimeMs(event),
    };
    this.shownByTarget.get(state)?.push(followed);
    this.shown++;
    this.opts.onEvent?.(followed);
    return true;
  }

  private retryPending(): void {
    const waiting = this.pending;
    this.pending = [];
    for (const event of waiting) if (!this.attribute(event)) this.pending.push(event);
  }

  private deploymentUid(namespace: string, name: string): string | undefined {
    return this.informers.get(`deployments/${namespace}`)?.get(`${namespace}/${name}`)?.metadata?.uid;
  }

  private matching(d: KubeObject): TargetState[] {
    const m = d.metadata ?? {};
    return this.targets.filter(
      (t) =>
        t.target.namespace === m.namespace &&
        t.target.name === m.name &&
        (!t.target.uid || t.target.uid === m.uid),
    );
  }

  private onDeployment(d: KubeObject): void {
    for (const t of this.matching(d)) this.judge(t, d);
    // A Deployment event can make its own pending events attributable (they carry no uid).
    if (this.pending.length > 0) this.retryPending();
  }

  private judge(t: TargetState, d: KubeObject): void {
    if (t.outcome) return;
    t.lastResourceVersion = d.metadata?.resourceVersion;
    let status: RolloutStatus;
    if ((d.metadata?.generation ?? 0) < (t.target.generation ?? 0)) {
      // A cached copy from before our change: judging it would report the previous rollout.
      status = { message: 'Waiting for deployment spec update to be observed...', done: false };
    } else {
      try {
        status = deploymentStatus(d);
      } catch (err) {
        this.settle(t, { target: t.target, ok: false, error: err as Error, warnings: this.warnings(t) });
        return;
      }
    }
    this.opts.onStatus?.(t.target, status);
    if (status.done) this.settle(t, { target: t.target, ok: true, status });
  }

  private settle(t: TargetState, outcome: TargetOutcome): void {
    if (t.outcome) return;
    t.outcome = outcome;
    this.wake?.();
  }

  /** Warning events shown for a target, each in its latest occurrence (a BackOff seen 20 times is one line). */
  private warnings(t: TargetState): FollowedEvent[] {
    const latest = new Map<string, FollowedEvent>();
    for (const e of this.shownByTarget.get(t) ?? []) {
      if (e.event.type !== 'Warning') continue;
      const uid = e.event.metadata?.uid ?? occurrenceKey(e.event);
      // Re-inserting moves it to the end: the list stays in order of last occurrence.
      latest.delete(uid);
      latest.set(uid, e);
    }
    return [...latest.values()];
  }

  /**
   * Events and the Deployment status travel on different watches; the events
   * behind the final status can trail it. Wait (briefly) until every events
   * watch has reached the final status's resourceVersion (bookmarks count),
   * so the last Started or the Warning that explains a failure is not lost.
   */
  private async drain(signal?: AbortSignal): Promise<void> {
    const target = Math.max(...this.targets.map((t) => Number(t.lastResourceVersion ?? 0)));
    if (!Number.isFinite(target) || target <= 0) return;
    const deadline = this.clock.now() + (this.opts.drainMs ?? 2_000);
    const events = [...this.informers].filter(([name]) => name.startsWith('events/')).map(([, i]) => i);
    while (this.clock.now() < deadline && !signal?.aborted) {
      if (events.every((i) => Number(i.watcher.resourceVersion) >= target)) break;
      await sleep(this.clock, 50, signal);
    }
  }
}
