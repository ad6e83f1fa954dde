/**
 * Events a controller records about an object, written as core/v1 Events the way client-go's
 * recorder writes a new one (tools/record: name `<object>.<hex nanoseconds>`, `source.component`
 * and `reportingComponent` the controller's name, count 1). Writes are in order, never block the
 * controller, and a failed one is logged, not retried: events are best effort upstream too.
 */
import type { KubeClient } from '../../client/client.js';
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';

/** Records events for one component (`job-controller`, `cronjob-controller`). */
export class EventWriter {
  private tail: Promise<void> = Promise.resolve();
  private sequence = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly component: string,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {}

  /** Records one event about `obj` (its apiVersion and kind must be set). */
  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const m = obj.metadata ?? {};
    const now = this.clock.now();
    const stamp = new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const nanos = BigInt(now) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    const namespace = m.namespace || 'default';
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${m.name}.${nanos.toString(16)}`, namespace },
      involvedObject: {
        kind: obj.kind,
        namespace: m.namespace,
        name: m.name,
        uid: m.uid,
        apiVersion: obj.apiVersion,
        resourceVersion: m.resourceVersion,
      },
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: '',
    };
    this.tail = this.tail.then(() =>
      this.kube
        .resource('events', namespace)
        .create(event as KubeObject)
        .then(
          () => undefined,
          (err: unknown) =>
            this.log(`${this.component}: event ${reason} on ${m.name}: ${(err as Error).message}`),
        ),
    );
  }

  /** Resolves once every event recorded so far was written (or failed). */
  flushed(): Promise<void> {
    return this.tail;
  }
}
