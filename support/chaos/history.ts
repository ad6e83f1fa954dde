/**
 * Watches an informer's handlers and checks that they tell a consistent
 * story, whatever the network did: an object is added before it is updated
 * or deleted, never added twice without a delete between, each update starts
 * from the state the handlers were last given, and resourceVersions of one
 * key only grow (an object re-created after a delete, or one that re-enters
 * a selector, is a new add at a newer resourceVersion). Replaying the
 * handlers must rebuild the informer's cache exactly.
 */

import { type Informer, type KubeObject, objectKey } from '../../src/index.js';

/** Counts of what the handlers were told. */
export interface HandlerCounts {
  add: number;
  update: number;
  /** Updates re-delivering the state the handlers already have (resync). */
  resync: number;
  delete: number;
  deleteFinalStateUnknown: number;
}

const rvOf = (o: KubeObject): number => Number(o.metadata?.resourceVersion ?? Number.NaN);

/** Records an informer's handler calls and the protocol violations among them. */
export class HandlerHistory {
  readonly counts: HandlerCounts = { add: 0, update: 0, resync: 0, delete: 0, deleteFinalStateUnknown: 0 };
  readonly violations: string[] = [];
  /** The state the handlers describe: key -> resourceVersion. */
  private readonly state = new Map<string, number>();
  /** The newest resourceVersion the handlers were ever given per key (deletes included). */
  private readonly newest = new Map<string, number>();
  /** The last few calls per key, for failure reports. */
  private readonly trail = new Map<string, string[]>();
  private readonly name: string;
  private readonly slow: boolean;
  private readonly resyncs: boolean;
  private calls = 0;

  /**
   * Registers on `informer`. `slow` handlers are async and every few calls wait a millisecond;
   * with `resyncs`, an update from the current state to itself is a resync, not a violation.
   */
  constructor(name: string, informer: Informer, opts: { slow?: boolean; resyncs?: boolean } = {}) {
    this.name = name;
    this.slow = opts.slow ?? false;
    this.resyncs = opts.resyncs ?? false;
    informer.on({
      add: (o) => this.after(() => this.add(o)),
      update: (before, after) => this.after(() => this.update(before, after)),
      delete: (o, info) => this.after(() => this.delete(o, info.finalStateUnknown)),
    });
  }

  /** Records synchronously (the order is what is checked), then maybe lingers like a slow handler. */
  private after(record: () => void): void | Promise<void> {
    record();
    if (!this.slow || ++this.calls % 3 !== 0) return;
    return new Promise((resolve) => setTimeout(resolve, 1));
  }

  /** key -> resourceVersion as the handlers describe it. */
  snapshot(): Map<string, number> {
    return new Map(this.state);
  }

  /** The recent handler calls for `key`, oldest first. */
  trailOf(key: string): string[] {
    return this.trail.get(key) ?? [];
  }

  private add(o: KubeObject): void {
    this.counts.add++;
    const key = objectKey(o);
    const rv = rvOf(o);
    this.note(key, `add@${rv}`);
    if (this.state.has(key)) this.violate(key, `add for a key already added (at ${this.state.get(key)})`);
    this.checkNewer(key, rv, 'add');
    this.state.set(key, rv);
  }

  private update(before: KubeObject, after: KubeObject): void {
    this.counts.update++;
    const key = objectKey(after);
    const rv = rvOf(after);
    if (this.resyncs && rv === rvOf(before) && this.state.get(key) === rv) {
      this.counts.resync++;
      return;
    }
    this.note(key, `update ${rvOf(before)}->${rv}`);
    if (objectKey(before) !== key) this.violate(key, `update changes the key from ${objectKey(before)}`);
    const known = this.state.get(key);
    if (known === undefined) this.violate(key, 'update for a key not added (or deleted)');
    else if (rvOf(before) !== known)
      this.violate(key, `update from ${rvOf(before)}, but the handlers last saw ${known}`);
    if (!(rv > rvOf(before))) this.violate(key, `update does not advance: ${rvOf(before)} -> ${rv}`);
    this.checkNewer(key, rv, 'update');
    this.state.set(key, rv);
  }

  private delete(o: KubeObject, finalStateUnknown: boolean): void {
    this.counts.delete++;
    if (finalStateUnknown) this.counts.deleteFinalStateUnknown++;
    const key = objectKey(o);
    const rv = rvOf(o);
    this.note(key, `delete@${rv}${finalStateUnknown ? ' (final state unknown)' : ''}`);
    const known = this.state.get(key);
    if (known === undefined) {
      this.violate(key, 'delete for a key not added (or already deleted)');
    } else if (finalStateUnknown) {
      // The last known state: exactly what the handlers were last given.
      if (rv !== known) this.violate(key, `final-state-unknown delete at ${rv}, handlers last saw ${known}`);
    } else if (!(rv > known)) {
      // A watched delete carries the deletion's resourceVersion, newer than any state before it.
      this.violate(key, `delete at ${rv} not newer than the last state ${known}`);
    }
    if (!finalStateUnknown) this.checkNewer(key, rv, 'delete');
    this.state.delete(key);
  }

  private checkNewer(key: string, rv: number, what: string): void {
    if (!Number.isFinite(rv)) {
      this.violate(key, `${what} without a resourceVersion`);
      return;
    }
    const newest = this.newest.get(key);
    if (newest !== undefined && rv <= newest) {
      this.violate(key, `${what} at ${rv}, but ${newest} was already delivered for this key`);
    }
    if (newest === undefined || rv > newest) this.newest.set(key, rv);
  }

  private note(key: string, what: string): void {
    let t = this.trail.get(key);
    if (!t) {
      t = [];
      this.trail.set(key, t);
    }
    t.push(what);
    if (t.length > 12) t.shift();
  }

  private violate(key: string, message: string): void {
    if (this.violations.length >= 20) return;
    this.violations.push(`${this.name}: ${key}: ${message} [${this.trailOf(key).join(', ')}]`);
  }
}
