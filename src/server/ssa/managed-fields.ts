/**
 * `metadata.managedFields` in and out (k8s.io/apimachinery/pkg/util/managedfields/internal/
 * managedfields.go `DecodeManagedFields`, `BuildManagerIdentifier`, `encodeManagedFields`,
 * `sortEncodedManagedFields`): each entry becomes a versioned field set keyed by its manager
 * identifier, the JSON of the entry's manager, operation, apiVersion (Update only: an applier keeps
 * one entry whatever version it applies) and subresource. Encoding writes the entries back in
 * upstream's order: operation (`Apply` before `Update`), then time (seconds), manager, apiVersion,
 * subresource; empty sets are never stored (the updater drops them).
 */
import type { FieldSet } from './field-set.js';
import { type FieldsV1, fieldsV1ToSet, setToFieldsV1 } from './fields-v1.js';
import { scanFieldsV1 } from './fields-v1-raw.js';
import { goJSON } from './path-element.js';

/** One `metadata.managedFields` entry (meta/v1 `ManagedFieldsEntry`), keys in Go's field order. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

/** smd `fieldpath.VersionedSet`: the fields one manager owns, at the version it wrote them. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** True for an `Apply` entry. */
  readonly applied: boolean;
  /**
   * The FieldsV1 object `set` was read from, when it is in smd's own form: questions about an
   * entry nobody changes are answered on it (fields-v1-raw.ts) and it is written back as it was.
   * A changed set is a new VersionedSet without it ({@link withSet}).
   */
  readonly raw?: FieldsV1;
}

/** An entry read from managedFields: its set is decoded only when asked for. */
class StoredSet implements VersionedSet {
  private decoded: FieldSet | undefined;
  constructor(
    readonly raw: FieldsV1,
    readonly apiVersion: string,
    readonly applied: boolean,
  ) {}

  get set(): FieldSet {
    this.decoded ??= fieldsV1ToSet(this.raw);
    return this.decoded;
  }
}

/** A versioned set with a new field set (never carrying the old one's FieldsV1). */
export function withSet(vs: VersionedSet, set: FieldSet): VersionedSet {
  return { set, apiVersion: vs.apiVersion, applied: vs.applied };
}

/** internal `ManagedInterface`: the field sets and the time of each manager, by identifier. */
export interface Managed {
  readonly fields: Map<string, VersionedSet>;
  readonly times: Map<string, string | undefined>;
}

/** A fresh, empty {@link Managed}. */
export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** A copy whose maps can be changed without touching `m` (the sets are shared; they are immutable). */
export function copyManaged(m: Managed): Managed {
  return { fields: new Map(m.fields), times: new Map(m.times) };
}

/** Why managedFields could not be decoded (upstream's message). */
export class ManagedFieldsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManagedFieldsError';
  }
}

/**
 * internal `BuildManagerIdentifier`: the JSON of the entry without fieldsType, fieldsV1 and time,
 * and without apiVersion for `Apply` (Go's encoder: omitted when empty, in struct order).
 */
export function managerIdentifier(entry: ManagedFieldsEntry): string {
  const parts: string[] = [];
  if (entry.manager) parts.push(`"manager":${goJSON(entry.manager)}`);
  if (entry.operation) parts.push(`"operation":${goJSON(entry.operation)}`);
  if (entry.apiVersion && entry.operation !== 'Apply') parts.push(`"apiVersion":${goJSON(entry.apiVersion)}`);
  if (entry.subresource) parts.push(`"subresource":${goJSON(entry.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** internal `DecodeManagedFields`. Throws {@link ManagedFieldsError} with upstream's message. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  for (let i = 0; i < entries.length; i++) {
    const e = (entries[i] ?? {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    }
    if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1)
      throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') {
      throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    }
    if (e.fieldsType !== 'FieldsV1') {
      throw new ManagedFieldsError(
        `invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`,
      );
    }
    const id = managerIdentifier(e);
    const raw = e.fieldsV1 ?? {};
    const applied = e.operation === 'Apply';
    try {
      if (scanFieldsV1(raw)) managed.fields.set(id, new StoredSet(raw, e.apiVersion, applied));
      else managed.fields.set(id, { set: fieldsV1ToSet(raw), apiVersion: e.apiVersion, applied });
    } catch (err) {
      throw new ManagedFieldsError(
        `error decoding versioned set: error decoding set: ${(err as Error).message}`,
      );
    }
    managed.times.set(id, e.time);
  }
  return managed;
}

/**
 * internal `encodeManagedFields`: the entries, sorted as upstream sorts them, or undefined when
 * no manager is left (the object then has no managedFields).
 */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const fromId = JSON.parse(id) as ManagedFieldsEntry;
    const entry: ManagedFieldsEntry = {};
    if (fromId.manager) entry.manager = fromId.manager;
    entry.operation = vs.applied ? 'Apply' : (fromId.operation ?? '');
    if (!entry.operation) delete entry.operation;
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = vs.raw ?? setToFieldsV1(vs.set);
    if (fromId.subresource) entry.subresource = fromId.subresource;
    entries.push(entry);
  }
  return entries.sort(compareEntries);
}

/** internal `sortEncodedManagedFields`. */
function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  const po = p.operation ?? '';
  const qo = q.operation ?? '';
  if (po !== qo) return po < qo ? -1 : 1;
  const ps = unixSeconds(p.time);
  const qs = unixSeconds(q.time);
  if (ps !== qs) return ps < qs ? -1 : 1;
  for (const k of ['manager', 'apiVersion', 'subresource'] as const) {
    const a = p[k] ?? '';
    const b = q[k] ?? '';
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

/** metav1.Time `Unix()` of an RFC 3339 time; 0 when absent (as upstream counts a nil time). */
export function unixSeconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** metav1.Time as JSON writes it: RFC 3339 in UTC, whole seconds. */
export function formatTime(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/** internal fieldmanager.go `isResetManagedFields`: `[]` or `[{}]`. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  if (entries.length === 1) {
    const e = entries[0];
    return e !== null && typeof e === 'object' && !Array.isArray(e) && Object.keys(e).length === 0;
  }
  return false;
}

const OLD_UPDATES_MANAGER = 'ancient-changes';

/**
 * internal capmanagers.go `capUpdateManagers`: beyond `max` Update entries, the oldest are folded
 * into one `ancient-changes` entry per apiVersion (the first of a version becomes the bucket when
 * a second of that version joins it), taking the time of the entry merged last.
 */
export function capUpdateManagers(managed: Managed, max: number): void {
  const updaters: string[] = [];
  for (const [id, vs] of managed.fields) if (!vs.applied) updaters.push(id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => {
    const as = unixSeconds(managed.times.get(a));
    const bs = unixSeconds(managed.times.get(b));
    if (as !== bs) return as < bs ? -1 : 1;
    return a < b ? -1 : a === b ? 0 : 1;
  });
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i] as string;
    const vs = managed.fields.get(id) as VersionedSet;
    const time = managed.times.get(id);
    const version = vs.apiVersion;
    const bucket = managerIdentifier({
      manager: OLD_UPDATES_MANAGER,
      operation: 'Update',
      apiVersion: version,
    });
    const first = firstOfVersion.get(version);
    if (first === undefined) {
      firstOfVersion.set(version, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      const s = managed.fields.get(first) as VersionedSet;
      managed.fields.delete(first);
      managed.fields.set(bucket, s);
    }
    const b = managed.fields.get(bucket) as VersionedSet;
    managed.fields.set(bucket, withSet(vs, vs.set.union(b.set)));
    managed.fields.delete(id);
    length--;
    managed.times.set(bucket, time);
  }
}
