/**
 * client-go's EventCorrelator (tools/record/events_cache.go), which every
 * component runs before writing an Event:
 *
 * 1. aggregator: more than 10 events about one object with the same reason
 *    but different messages within 10 minutes become one event,
 *    "(combined from similar events): <message>";
 * 2. logger: an event identical to one already written (same source, object,
 *    type, reason, message) patches that event's `count` and `lastTimestamp`
 *    instead of creating a new one;
 * 3. spam filter: a token bucket per source+object+type (burst 25, one more
 *    every 5 minutes) drops the rest.
 *
 * Each cache is an LRU of 4096 keys, like client-go's.
 */
import type { Clock } from '../../protocol/clock.js';
import type { KubeEvent } from './types.js';

const MAX_LRU = 4096;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_WINDOW_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_REFILL_MS = 300_000;

/** A least-recently-used map with a size cap. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > MAX_LRU) this.map.delete(this.map.keys().next().value as string);
  }
}

/** The last write of one correlated event, for patching its count. */
interface Observation {
  count: number;
  firstTimestamp: string;
  name: string;
}

/** What to do with one event: create it, patch an earlier one, or drop it. */
export type Correlation =
  | { action: 'create'; event: KubeEvent; key: string }
  | { action: 'patch'; event: KubeEvent; key: string }
  | { action: 'skip' };

function objectKey(e: KubeEvent): string {
  const o = e.involvedObject;
  return [
    e.source.component,
    e.source.host ?? '',
    o.kind,
    o.namespace ?? '',
    o.name,
    o.uid ?? '',
    o.apiVersion ?? '',
  ].join('\u0000');
}

/** client-go's getEventKey: everything that makes two events "the same". */
function eventKey(e: KubeEvent): string {
  return [objectKey(e), e.involvedObject.fieldPath ?? '', e.type, e.reason, e.message].join('\u0000');
}

/** Correlates events before they are written (see the module comment). */
export class EventCorrelator {
  private readonly clock: Clock;
  private readonly aggregates = new Lru<{ messages: Set<string>; last: number }>();
  private readonly observations = new Lru<Observation>();
  private readonly spam = new Lru<{ tokens: number; at: number }>();

  constructor(clock: Clock) {
    this.clock = clock;
  }

  /** Decides how `event` (a fresh event, count 1) is written. */
  correlate(event: KubeEvent): Correlation {
    const { event: aggregated, key } = this.aggregate(event);
    const observed = this.observe(aggregated, key);
    if (!this.allow(observed.event)) return { action: 'skip' };
    return observed;
  }

  /** Records what the server stored, so the next duplicate patches the right object. */
  written(key: string, event: KubeEvent): void {
    this.observations.set(key, {
      count: event.count ?? 1,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata.name,
    });
  }

  /** Forgets a write that failed for good (the next duplicate creates afresh). */
  forget(key: string): void {
    this.observations.set(key, { count: 0, firstTimestamp: '', name: '' });
  }

  private aggregate(event: KubeEvent): { event: KubeEvent; key: string } {
    const now = this.clock.now();
    const aggregateKey = [objectKey(event), event.type, event.reason].join('\u0000');
    let record = this.aggregates.get(aggregateKey);
    if (!record || now - record.last > AGGREGATE_WINDOW_MS) record = { messages: new Set(), last: now };
    record.messages.add(event.message);
    record.last = now;
    this.aggregates.set(aggregateKey, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return { event, key: eventKey(event) };
    // Do not let the set grow past the threshold (client-go pops one).
    record.messages.delete(record.messages.values().next().value as string);
    return {
      event: { ...event, message: `(combined from similar events): ${event.message}` },
      key: aggregateKey,
    };
  }

  private observe(event: KubeEvent, key: string): Exclude<Correlation, { action: 'skip' }> {
    const last = this.observations.get(key);
    if (last && last.count > 0) {
      const patched: KubeEvent = {
        ...event,
        metadata: { ...event.metadata, name: last.name },
        firstTimestamp: last.firstTimestamp,
        count: last.count + 1,
      };
      this.observations.set(key, { ...last, count: last.count + 1 });
      return { action: 'patch', event: patched, key };
    }
    this.observations.set(key, {
      count: 1,
      firstTimestamp: event.firstTimestamp ?? '',
      name: event.metadata.name,
    });
    return { action: 'create', event, key };
  }

  private allow(event: KubeEvent): boolean {
    const now = this.clock.now();
    const key = [objectKey(event), event.type].join('\u0000');
    const bucket = this.spam.get(key) ?? { tokens: SPAM_BURST, at: now };
    bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + (now - bucket.at) / SPAM_REFILL_MS);
    bucket.at = now;
    this.spam.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
