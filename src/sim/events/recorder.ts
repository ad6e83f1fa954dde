/**
 * Event recording as client-go's `tools/record` does it: a component's
 * recorder hands events to its broadcaster, which correlates them
 * ({@link EventCorrelator}) and writes them one at a time, in order, from a
 * bounded queue (1000; beyond that events are dropped, never blocking the
 * controller that reported them).
 */

import type { ResourceClient } from '../../client/rest.js';
import { sleep } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { isNotFound, StatusError } from '../../protocol/status.js';
import type { SimContext } from '../core/controller.js';
import { rfc3339 } from '../core/objects.js';
import { type Correlation, EventCorrelator } from './correlator.js';
import type { EventSource, EventType, KubeEvent, ObjectReference } from './types.js';

/** Counters of one broadcaster. */
export interface EventStats {
  created: number;
  patched: number;
  /** Dropped by the spam filter. */
  filtered: number;
  /** Dropped because the queue was full. */
  dropped: number;
  /** Writes that failed for good. */
  failed: number;
}

const MAX_QUEUED = 1000;
const WRITE_ATTEMPTS = 4;
const WRITES_IN_FLIGHT = 4;

let sequence = 0;

/** The reference an event's `involvedObject` carries (client-go's `ref.GetReference`). */
export function referenceTo(obj: KubeObject, fieldPath?: string): ObjectReference {
  const m = obj.metadata ?? {};
  const ref: ObjectReference = {
    kind: obj.kind ?? '',
    namespace: m.namespace,
    name: m.name ?? '',
    uid: m.uid,
    apiVersion: obj.apiVersion,
    resourceVersion: m.resourceVersion,
  };
  if (fieldPath) ref.fieldPath = fieldPath;
  return ref;
}

function isReference(o: KubeObject | ObjectReference): o is ObjectReference {
  return !('metadata' in o) && typeof o.name === 'string';
}

/** One component's recorder: `event(pod, 'Normal', 'Pulling', 'Pulling image "nginx"')`. */
export class EventRecorder {
  private readonly broadcaster: EventBroadcaster;
  /** Where the events say they come from (`kubelet` on `node-1`). */
  readonly source: EventSource;

  constructor(broadcaster: EventBroadcaster, source: EventSource) {
    this.broadcaster = broadcaster;
    this.source = source;
  }

  /** Records an event about `object` (an object or a reference); never throws, never waits. */
  event(
    object: KubeObject | ObjectReference,
    type: EventType,
    reason: string,
    message: string,
    fieldPath?: string,
  ): void {
    const ref = isReference(object) ? { ...object } : referenceTo(object, fieldPath);
    if (fieldPath) ref.fieldPath = fieldPath;
    const now = this.broadcaster.clock.now();
    // client-go names events <object>.<UnixNano in hex>; the sequence keeps same-ms events apart.
    const nanos = BigInt(now) * 1_000_000n + BigInt(sequence++ % 1_000_000);
    const time = rfc3339(now);
    this.broadcaster.enqueue({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${ref.name}.${nanos.toString(16)}`, namespace: ref.namespace || 'default' },
      involvedObject: ref,
      reason,
      message,
      source: this.source.host ? { ...this.source } : { component: this.source.component },
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
    });
  }
}

/** Correlates and writes the events of the recorders made from it, serially (see the module comment). */
export class EventBroadcaster {
  readonly stats: EventStats = { created: 0, patched: 0, filtered: 0, dropped: 0, failed: 0 };
  readonly clock: SimContext['clock'];
  private readonly ctx: SimContext;
  private readonly events: ResourceClient<KubeEvent>;
  private readonly correlator: EventCorrelator;
  private readonly queue: KubeEvent[] = [];
  private writing: Promise<void> | undefined;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(ctx: SimContext) {
    this.ctx = ctx;
    this.clock = ctx.clock;
    this.events = ctx.kube.resource<KubeEvent>('events');
    this.correlator = new EventCorrelator(ctx.clock);
  }

  /** A recorder whose events come from `source`. */
  recorder(source: EventSource): EventRecorder {
    return new EventRecorder(this, source);
  }

  /** Queues an event for writing (drops it when the queue is full or stopped). */
  enqueue(event: KubeEvent): void {
    if (this.stopped) return;
    if (this.queue.length >= MAX_QUEUED) {
      if (this.stats.dropped++ % 1000 === 0)
        this.ctx.log(
          `events: queue full, dropping events (first: ${event.reason} ${event.involvedObject.name})`,
        );
      return;
    }
    this.queue.push(event);
    this.kick();
  }

  private kick(): void {
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
      // An event queued while the last write finished still needs a writer.
      if (this.queue.length > 0 && !this.stopped) this.kick();
      else for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  /** Resolves when every queued event has been written (or given up on). */
  flush(): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops writing; queued events are dropped, the write in flight is aborted by the context's signal. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.writing;
  }

  /**
   * Correlates events in order and writes them, a few at a time; writes of
   * one correlation key stay in order (a count patch after its create).
   * client-go writes strictly one at a time; at thousands of pods a
   * component's events would then mostly be dropped.
   */
  private async drain(): Promise<void> {
    const writes = new Set<Promise<void>>();
    const byKey = new Map<string, Promise<void>>();
    for (;;) {
      for (let event = this.queue.shift(); event; event = this.queue.shift()) {
        if (this.stopped || this.ctx.signal.aborted) break;
        const c = this.correlator.correlate(event);
        if (c.action === 'skip') {
          this.stats.filtered++;
          continue;
        }
        const write = (byKey.get(c.key) ?? Promise.resolve()).then(() => this.write(c));
        byKey.set(c.key, write);
        writes.add(write);
        void write.finally(() => {
          writes.delete(write);
          if (byKey.get(c.key) === write) byKey.delete(c.key);
        });
        if (writes.size >= WRITES_IN_FLIGHT) await Promise.race(writes);
      }
      if (writes.size === 0) return;
      await Promise.race(writes);
    }
  }

  private async write(c: Exclude<Correlation, { action: 'skip' }>): Promise<void> {
    const events = this.events.inNamespace(c.event.metadata.namespace);
    const signal = this.ctx.signal;
    let action = c.action;
    for (let attempt = 1; ; attempt++) {
      try {
        let stored: KubeEvent;
        if (action === 'patch') {
          const patch = {
            count: c.event.count,
            lastTimestamp: c.event.lastTimestamp,
            message: c.event.message,
          };
          stored = await events.patch(c.event.metadata.name, patch, 'merge', { signal });
          this.stats.patched++;
        } else {
          stored = await events.create({ ...c.event, metadata: { ...c.event.metadata } }, { signal });
          this.stats.created++;
        }
        this.correlator.written(c.key, stored);
        return;
      } catch (err) {
        if (signal.aborted) return;
        // The event we meant to patch is gone (deleted, namespace recreated): create it instead.
        if (action === 'patch' && isNotFound(err)) {
          action = 'create';
          continue;
        }
        // As client-go: a rejected event is not retried; a failed connection is, a few times.
        const retryable = !(err instanceof StatusError) || err.code >= 500 || err.code === 429;
        if (!retryable || attempt >= WRITE_ATTEMPTS) {
          this.stats.failed++;
          this.correlator.forget(c.key);
          if (!isNotFound(err))
            this.ctx.log(
              `events: ${c.event.reason} ${c.event.involvedObject.name}: ${(err as Error).message}`,
            );
          return;
        }
        await sleep(this.clock, 100 * 2 ** attempt, signal);
      }
    }
  }
}
