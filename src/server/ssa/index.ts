/**
 * Server-side apply's field ownership, for the HTTP layer to call: {@link applyConfiguration} for
 * an apply patch (operation `Apply`) and {@link recordUpdate} for create, update and the other
 * patches (operation `Update`). Both take and return plain JSON objects; neither does I/O.
 */
import { StatusError } from '../../protocol/status.js';
import { compare } from './compare.js';
import { ConflictsError, conflictStatusError } from './conflict.js';
import {
  applyWithLastApplied,
  badRequest,
  type FieldManagerContext,
  LAST_APPLIED_ANNOTATION,
  syncLastApplied,
  updateChain,
} from './field-manager.js';
import type { FieldSet } from './field-set.js';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  type Managed,
  type ManagedFieldsEntry,
  ManagedFieldsError,
} from './managed-fields.js';
import type { MergeNode } from './merge-schema.js';
import { goJSON } from './path-element.js';
import { toFieldSet } from './to-field-set.js';
import { deepEqual, type JSONObject, TypedValueError, withItemKeys } from './typed-node.js';

export { ConflictsError, conflictStatusError } from './conflict.js';
export { FieldSet } from './field-set.js';
export { fieldsV1ToSet, setToFieldsV1 } from './fields-v1.js';
export type { ManagedFieldsEntry } from './managed-fields.js';
export { TypedValueError } from './typed-node.js';

/** The write both entry points describe. */
export interface WriteContext {
  /** The merge schema of the kind at `apiVersion`. */
  readonly node: MergeNode;
  /** The group/version written: `apps/v1`, `v1`. */
  readonly apiVersion: string;
  /** The kind, checked against an applied configuration's (versioncheck.go). */
  readonly kind?: string;
  /** `status` or `scale` for a subresource write. */
  readonly subresource?: string;
  /** Fields this endpoint resets (the strategy's `GetResetFields`), e.g. `status` on the main resource. */
  readonly ignoredFields?: FieldSet;
  /**
   * The kind's new, empty object as kube-apiserver serializes one (Go zero values: a Deployment's
   * `spec.strategy: {}`, `spec.template.metadata.creationTimestamp: null`...): what a create is
   * compared against, so that structs present in every object are not recorded as set by the
   * creator. Defaults to `{}`.
   */
  readonly empty?: JSONObject;
  /** The manager: the `fieldManager` query, else {@link managerOrUserAgent}. */
  readonly manager: string;
  /** Time for the entries that change (second precision is kept). */
  readonly now: Date;
}

/** The object to store, with its `metadata.managedFields` set (or removed when no manager is left). */
export interface OwnershipResult {
  readonly object: JSONObject;
  /** The entries written into `object.metadata.managedFields`, or undefined. */
  readonly managedFields: ManagedFieldsEntry[] | undefined;
  /** True when an apply changed neither the object nor its managers: nothing to store (no new resourceVersion, no watch event). */
  readonly noop: boolean;
}

/**
 * handlers/rest.go `managerOrUserAgent`: the `fieldManager` query, else the User-Agent before its
 * first `/`, without unprintable characters, cut to 128 bytes (validation `FieldManagerMaxLength`).
 */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const head = (userAgent ?? '').split('/')[0] as string;
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (/[\p{C}\p{Zl}\p{Zp}]/u.test(ch) || (/\p{Zs}/u.test(ch) && ch !== ' ')) continue; // Go unicode.IsPrint
    const n = Buffer.byteLength(ch);
    if (bytes + n > 128) break;
    out += ch;
    bytes += n;
  }
  return out;
}

function metadataOf(obj: JSONObject): JSONObject {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as JSONObject) : {};
}

/** The object without `metadata.managedFields` (a shallow copy where it changes). */
function withoutManagedFields(obj: JSONObject): JSONObject {
  const meta = metadataOf(obj);
  if (!('managedFields' in meta)) return obj;
  const { managedFields: _, ...rest } = meta;
  return { ...obj, metadata: rest };
}

function withManagedFields(obj: JSONObject, managed: Managed): OwnershipResult & { noop: false } {
  const entries = encodeManagedFields(managed);
  const meta = { ...metadataOf(obj) };
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries;
  return { object: { ...obj, metadata: meta }, managedFields: entries, noop: false };
}

function fieldManagerContext(w: WriteContext): FieldManagerContext {
  return {
    node: w.node,
    apiVersion: w.apiVersion,
    subresource: w.subresource,
    ignoredFields: w.ignoredFields,
    now: w.now,
    empty: w.empty ?? {},
  };
}

/**
 * Records a create, update or non-apply patch (fieldmanager.go `FieldManager.UpdateNoErrors`):
 * the managers come from `next.metadata.managedFields` unless it is missing, empty or invalid (then
 * from `live`), `[]` or `[{}]` resets them, and a subresource write always starts from `live`'s.
 * An existing object with no managers stays untracked (skipnonapplied.go). Never throws for
 * ownership reasons; on an internal failure `next` keeps `live`'s managedFields.
 */
export function recordUpdate(
  args: WriteContext & { live: JSONObject | undefined; next: JSONObject },
): OwnershipResult {
  const { live, next } = args;
  let managed: Managed;
  const liveEntries = live === undefined ? undefined : metadataOf(live).managedFields;
  const nextEntries = metadataOf(next).managedFields;
  const decodeOrEmpty = (entries: unknown) => {
    try {
      return decodeManagedFields(entries);
    } catch {
      return emptyManaged();
    }
  };
  if (args.subresource) managed = decodeOrEmpty(liveEntries);
  else if (isResetManagedFields(nextEntries)) managed = emptyManaged();
  else {
    let fromNext: Managed | undefined;
    try {
      fromNext = decodeManagedFields(nextEntries);
    } catch {
      fromNext = undefined;
    }
    managed = fromNext === undefined || fromNext.fields.size === 0 ? decodeOrEmpty(liveEntries) : fromNext;
  }
  const bareNext = withoutManagedFields(next);
  const uid = live === undefined ? undefined : metadataOf(live).uid;
  if (managed.fields.size === 0 && typeof uid === 'string' && uid !== '') {
    return { object: bareNext, managedFields: undefined, noop: false };
  }
  try {
    updateChain(
      live === undefined ? (args.empty ?? {}) : withoutManagedFields(live),
      bareNext,
      managed,
      args.manager,
      fieldManagerContext(args),
    );
  } catch (err) {
    if (!(err instanceof TypedValueError)) throw err;
    const meta = { ...metadataOf(next) };
    if (liveEntries === undefined) delete meta.managedFields;
    else meta.managedFields = liveEntries;
    return {
      object: { ...next, metadata: meta },
      managedFields: liveEntries as ManagedFieldsEntry[] | undefined,
      noop: false,
    };
  }
  return withManagedFields(bareNext, managed);
}

/**
 * Applies a configuration (fieldmanager.go `FieldManager.Apply` through the default chain):
 * merges `config` into `live` (an empty object when creating), removes fields this manager no
 * longer applies that no one else owns, and records ownership. Throws a StatusError: 409
 * `Conflict` (unless `force`), 400 for a configuration of the wrong kind or carrying
 * managedFields, 500 (no reason, as for any error that is not a Status) for managedFields that cannot be decoded or a configuration smd refuses.
 */
export function applyConfiguration(
  args: WriteContext & { live: JSONObject | undefined; config: JSONObject; force: boolean },
): OwnershipResult {
  const { config } = args;
  checkAppliedType(config, args.apiVersion, args.kind);
  const configMeta = metadataOf(config);
  if (configMeta.managedFields !== undefined && configMeta.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  let managed: Managed;
  try {
    managed = decodeManagedFields(args.live === undefined ? undefined : metadataOf(args.live).managedFields);
  } catch (err) {
    if (!(err instanceof ManagedFieldsError)) throw err;
    throw StatusError.plain(`failed to decode managed fields: ${err.message}`);
  }
  const live = args.live === undefined ? (args.empty ?? {}) : withoutManagedFields(args.live);
  const ctx = fieldManagerContext(args);
  let result: { object: unknown; managed: Managed };
  try {
    result = withItemKeys(() =>
      applyWithLastApplied(live, config, managed, args.manager, args.force, ctx, (l) =>
        allowedConflictsFromLastApplied(l, args.node, args.apiVersion),
      ),
    );
  } catch (err) {
    if (err instanceof ConflictsError) throw conflictStatusError(err.conflicts);
    if (err instanceof TypedValueError) {
      throw StatusError.plain(`failed to create typed patch object (${objectGVKNN(config)}): ${err.message}`);
    }
    throw err;
  }
  let unchanged = result.object === undefined;
  let object = (unchanged ? live : result.object) as JSONObject;
  if (args.manager === 'kubectl') {
    const synced = syncLastApplied(object, config, goJSON);
    if (synced !== object) unchanged = false;
    object = synced;
  }
  const out = withManagedFields(object, result.managed);
  // Nothing to store only when the managers are unchanged too (a new co-owner is a write).
  const liveEntries = args.live === undefined ? undefined : metadataOf(args.live).managedFields;
  const noop = unchanged && args.live !== undefined && deepEqual(out.managedFields, liveEntries);
  return { ...out, noop };
}

/**
 * versioncheck.go `VersionCheckManager.Apply`, the outermost step of the chain: a configuration
 * of another group, version or kind is a 400 before anything reads its fields. Without `kind`,
 * only the version is checked (structuredmerge.go's own check).
 */
export function checkAppliedType(config: JSONObject, apiVersion: string, kind: string | undefined): void {
  if (kind !== undefined && (config.apiVersion !== apiVersion || config.kind !== kind)) {
    throw badRequest(`invalid object type: ${gvkString(config)}`);
  }
  if (config.apiVersion !== apiVersion) {
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${String(config.apiVersion ?? '')}, expected: ${apiVersion}`,
    );
  }
}

/** lastappliedmanager.go `allowedConflictsFromLastApplied`: undefined when nothing is allowed. */
function allowedConflictsFromLastApplied(
  live: unknown,
  node: MergeNode,
  apiVersion: string,
): FieldSet | undefined {
  const annotations = metadataOf(live as JSONObject).annotations as Record<string, unknown> | undefined;
  const text = annotations?.[LAST_APPLIED_ANNOTATION];
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (
    lastApplied === null ||
    typeof lastApplied !== 'object' ||
    (lastApplied as JSONObject).apiVersion !== apiVersion
  )
    return undefined;
  let set: FieldSet;
  try {
    set = toFieldSet(lastApplied, node);
  } catch {
    return undefined;
  }
  const c = compare(lastApplied, live, node);
  return set.difference(c.modified).difference(c.added).difference(c.removed);
}

/** GroupVersionKind's String: `apps/v1, Kind=Deployment` (`/v1, Kind=Pod` for the core group). */
function gvkString(obj: JSONObject): string {
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const gv = av.includes('/') ? av : `/${av}`;
  return `${gv}, Kind=${typeof obj.kind === 'string' ? obj.kind : ''}`;
}

/** structuredmerge.go `objectGVKNN`: `namespace/name; apps/v1, Kind=Deployment`. */
function objectGVKNN(obj: JSONObject): string {
  const meta = metadataOf(obj);
  return `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}; ${gvkString(obj)}`;
}
