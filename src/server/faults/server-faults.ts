/**
 * `RunningServer.faults`: what a test does to the server to see how its client copes. Each
 * fault is what a real kube-apiserver can do: answer with an error, stop writing to its watch
 * streams, stop answering at all, cut every watch, lose its history.
 */
import type { Clock, TimerHandle } from '../../protocol/clock.js';
import { type FailRule, FailRules, type FaultHandle } from './fail-rules.js';
import { RequestGate } from './request-gate.js';

/** The faults of one server. */
export interface ServerFaults {
  /**
   * Answers the next `count` (default 1) requests matching `rule` with a Status in
   * kube-apiserver's shape for `rule.code`, before anything is read or written: nothing changes.
   */
  failNext(rule: FailRule): FaultHandle;
  /**
   * Open and new watch streams receive nothing (no event, no bookmark, no end) until
   * {@link resumeWatches}, which delivers all they held, in order. A stalled watcher that holds
   * more than `maxWatcherBufferBytes` is closed as too slow (its connection cut).
   */
  stallWatches(): void;
  /** Ends {@link stallWatches}. */
  resumeWatches(): void;
  /** Every new request (health checks included) waits unanswered, and watches stall, until {@link resume}. */
  pause(): void;
  /** Ends {@link pause}: the held requests are served in the order they came. */
  resume(): void;
  /** Cuts every open watch stream mid-flight (as the live view's button); returns how many. */
  dropWatches(): number;
  /** Compacts the store to now and empties the watch caches' history; returns the revision. */
  compact(): Promise<number>;
  /** Removes every rule and ends every stall and pause. */
  clear(): void;
}

/** What the faults act on: the server's watch writer and its existing actions. */
export interface FaultTargets {
  clock: Clock;
  /** The watch writer's stall switch (cache/watch-sink.ts `WatchWriter`). */
  watches: { stall(): void; resume(): void };
  dropWatches(): number;
  compact(): Promise<number>;
}

/** The state the debug endpoint shows. */
export interface FaultState {
  paused: boolean;
  watchesStalled: boolean;
  requestsWaiting: number;
  rules: ReturnType<FailRules['list']>;
}

/**
 * The faults of one server, and the gate and rules the request chain consults per request
 * (http/with-door.ts, fault-filter.ts).
 */
export class Faults implements ServerFaults {
  readonly rules = new FailRules();
  readonly gate = new RequestGate();
  private readonly targets: FaultTargets;
  private stalledByTest = false;
  private paused = false;
  private resumeTimer: TimerHandle | undefined;

  constructor(targets: FaultTargets) {
    this.targets = targets;
  }

  failNext(rule: FailRule): FaultHandle {
    return this.rules.add(rule);
  }

  stallWatches(): void {
    this.stalledByTest = true;
    this.syncStall();
  }

  resumeWatches(): void {
    this.stalledByTest = false;
    this.syncStall();
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.gate.close();
    this.syncStall();
  }

  /** Pauses for `ms` of the server's clock (over HTTP, nothing could resume a paused server). */
  pauseFor(ms: number): void {
    this.pause();
    this.resumeTimer?.cancel();
    this.resumeTimer = this.targets.clock.setTimeout(() => this.resume(), ms);
  }

  resume(): void {
    this.resumeTimer?.cancel();
    this.resumeTimer = undefined;
    if (!this.paused) return;
    this.paused = false;
    // Streams first: a held request served now may start a watch that must not stall.
    this.syncStall();
    this.gate.open();
  }

  dropWatches(): number {
    return this.targets.dropWatches();
  }

  compact(): Promise<number> {
    return this.targets.compact();
  }

  clear(): void {
    this.rules.clear();
    this.stalledByTest = false;
    this.resume();
    this.syncStall();
  }

  /** The server is closing: no timer left, nothing held (the connections are being cut). */
  dispose(): void {
    this.rules.clear();
    this.resumeTimer?.cancel();
    this.resumeTimer = undefined;
    this.paused = false;
    this.stalledByTest = false;
    this.gate.drop();
    this.syncStall();
  }

  state(): FaultState {
    return {
      paused: this.paused,
      watchesStalled: this.stalledByTest || this.paused,
      requestsWaiting: this.gate.waitingCount,
      rules: this.rules.list(),
    };
  }

  private syncStall(): void {
    if (this.stalledByTest || this.paused) this.targets.watches.stall();
    else this.targets.watches.resume();
  }
}
