/**
 * Steady pod churn spread uniformly over the nodes: creates, updates and
 * deletes in equal shares, at a fixed rate, open loop (a slow answer does not
 * slow the schedule). The operations are drawn from a seeded stream, so every
 * run of a study writes the same pods in the same order; writes to one pod
 * are chained so they land in the order they were drawn.
 */
import type { KubeClient } from '../client/client.js';
import type { ResourceClient } from '../client/rest.js';
import { type Random, randomInt, seededRandom } from '../process/index.js';
import type { KubeObject } from '../protocol/events.js';
import { podManifest, STUDY_NAMESPACE, standingPodName } from './cluster.js';
import type { Layout } from './options.js';

/** What the churn did. */
export interface ChurnStats {
  creates: number;
  updates: number;
  deletes: number;
  /** Writes the server refused or that failed in transit (counted, not retried). */
  failed: number;
  /** Most writes in flight at once: a machine that cannot keep up shows here. */
  maxInFlight: number;
  /** The slowest write's answer, ms: a server that stalls shows here. */
  maxLatencyMs: number;
}

/** Options of {@link Churn}. */
export interface ChurnOptions {
  /** Writes per real second. */
  ratePerSecond: number;
  seed: number;
  /** The standing pods per node that {@link populate} created. */
  podsPerNode: number;
  /** Told about each failed write (after it is counted). */
  onError?: (err: unknown) => void;
}

/** How often the scheduler wakes; the writes due since the last tick go at once. */
const TICK_MS = 10;

/** The churn generator: `start()`, then `stop()` waits for the writes in flight. */
export class Churn {
  readonly stats: ChurnStats = {
    creates: 0,
    updates: 0,
    deletes: 0,
    failed: 0,
    maxInFlight: 0,
    maxLatencyMs: 0,
  };
  private readonly pods: ResourceClient<KubeObject>;
  private readonly layout: Layout;
  private readonly opts: ChurnOptions;
  private readonly random: Random;
  /** Each node's pods, as the churn last wrote them (deleted ones leave at once). */
  private readonly byNode: string[][];
  /** The last write queued per pod: the next one to that pod waits for it. */
  private readonly chains = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private issued = 0;
  private pending = 0;
  private sequence = 0;

  constructor(kube: KubeClient, layout: Layout, opts: ChurnOptions) {
    this.pods = kube.resource('pods', STUDY_NAMESPACE);
    this.layout = layout;
    this.opts = opts;
    this.random = seededRandom(opts.seed);
    this.byNode = Array.from({ length: layout.nodes }, (_, node) =>
      Array.from({ length: opts.podsPerNode }, (_, k) => standingPodName(node, k)),
    );
  }

  /** Writes sent and not yet answered: a server that falls behind shows here. */
  get inFlight(): number {
    return this.pending;
  }

  /** Starts the {@link ChurnStats.maxInFlight} and latency peaks over (at a run's baseline). */
  resetPeak(): void {
    this.stats.maxInFlight = this.pending;
    this.stats.maxLatencyMs = 0;
  }

  /** Writes done (successful or not). */
  get writes(): number {
    return this.stats.creates + this.stats.updates + this.stats.deletes;
  }

  /** Starts the schedule. */
  start(): void {
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Stops the schedule and waits for every write in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all([...this.chains.values()]);
  }

  private tick(): void {
    // Catch up to the schedule: a late timer issues every write that fell due.
    const due = Math.floor(((performance.now() - this.startedAt) / 1000) * this.opts.ratePerSecond);
    while (this.issued < due) {
      this.issued++;
      this.next();
    }
  }

  /** Draws and queues one write. */
  private next(): void {
    const node = randomInt(this.random, this.layout.nodes);
    const roll = this.random();
    const names = this.byNode[node];
    const seq = this.sequence++;
    if (names.length === 0 || roll < 1 / 3) {
      const name = `c-${node}-${seq}`;
      names.push(name);
      this.chain(name, () => this.pods.create(podManifest(name, node, this.layout)), 'creates');
      return;
    }
    const index = randomInt(this.random, names.length);
    const name = names[index];
    if (roll < 2 / 3) {
      const patch = { metadata: { annotations: { 'watchmark.io/churn': String(seq) } } };
      this.chain(name, () => this.pods.patch(name, patch), 'updates');
    } else {
      names.splice(index, 1);
      this.chain(name, () => this.pods.delete(name), 'deletes');
    }
  }

  private chain(name: string, write: () => Promise<unknown>, kind: 'creates' | 'updates' | 'deletes'): void {
    const previous = this.chains.get(name) ?? Promise.resolve();
    const done = previous.then(async () => {
      this.pending++;
      this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.pending);
      const sent = performance.now();
      try {
        await write();
      } catch (err) {
        this.stats.failed++;
        this.opts.onError?.(err);
      } finally {
        this.pending--;
        this.stats.maxLatencyMs = Math.max(this.stats.maxLatencyMs, performance.now() - sent);
        this.stats[kind]++;
      }
    });
    this.chains.set(name, done);
    // A pod with nothing queued is forgotten, so the map holds only pods being written.
    void done.then(() => this.chains.get(name) === done && this.chains.delete(name));
  }
}
