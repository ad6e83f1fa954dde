/**
 * The field manager kube-apiserver wraps around the updater (k8s.io/apimachinery/pkg/util/
 * managedfields/internal: fieldmanager.go `FieldManager.Update`/`Apply` and
 * `NewDefaultFieldManager`'s chain, outermost first: versioncheck.go, lastappliedupdater.go,
 * lastappliedmanager.go, skipnonapplied.go (tracking from creation, probability 1), capmanagers.go,
 * buildmanagerinfo.go, managedfieldsupdater.go, stripmeta.go, structuredmerge.go). Each step is a
 * function here, called in that order.
 */
import { StatusError } from '../../protocol/status.js';
import { ConflictsError } from './conflict.js';
import { FieldSet } from './field-set.js';
import {
  capUpdateManagers,
  copyManaged,
  formatTime,
  type Managed,
  managerIdentifier,
  type VersionedSet,
  withSet,
} from './managed-fields.js';
import type { MergeNode } from './merge-schema.js';
import { fieldElement } from './path-element.js';
import { type UpdaterOptions, updaterApply, updaterUpdate } from './updater.js';

/** internal fieldmanager.go `DefaultMaxUpdateManagers`. */
export const MAX_UPDATE_MANAGERS = 10;
/** The annotation kubectl's client-side apply keeps (internal lastapplied.go). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** apimachinery validation `TotalAnnotationSizeLimitB`. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** What one write's field manager knows. */
export interface FieldManagerContext {
  readonly node: MergeNode;
  /** The group/version written, `apps/v1` or `v1`. */
  readonly apiVersion: string;
  /** `status`, `scale`, or undefined for the main resource. */
  readonly subresource?: string | undefined;
  readonly ignoredFields?: FieldSet | undefined;
  /** The time entries that change are stamped with. */
  readonly now: Date;
  /** The kind's new, empty object (see index.ts `WriteContext.empty`). */
  readonly empty: unknown;
}

/** internal stripmeta.go `stripSet`: paths no manager ever owns. */
const STRIP_SET = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

function stripFields(managed: Managed, manager: string): void {
  const vs = managed.fields.get(manager);
  if (vs === undefined) return;
  const set = vs.set.difference(STRIP_SET);
  if (set.empty()) managed.fields.delete(manager);
  else managed.fields.set(manager, withSet(vs, set));
}

function updaterOptions(ctx: FieldManagerContext): UpdaterOptions {
  return { node: ctx.node, apiVersion: ctx.apiVersion, ignoredFields: ctx.ignoredFields };
}

/** The name upstream records when the write named none (buildmanagerinfo.go). */
function managerName(manager: string): string {
  return manager === '' ? 'unknown' : manager;
}

/**
 * The Update chain below skipnonapplied: capmanagers(buildmanagerinfo(managedfieldsupdater(
 * stripmeta(structuredmerge)))). `managed` is changed in place.
 */
export function updateChain(
  live: unknown,
  next: unknown,
  managed: Managed,
  manager: string,
  ctx: FieldManagerContext,
): void {
  const id = managerIdentifier({
    manager: managerName(manager),
    operation: 'Update',
    apiVersion: ctx.apiVersion,
    subresource: ctx.subresource,
  });
  // managedfieldsupdater.go: the write runs as "current-operation", so that the entry's time moves
  // only when the write took some field.
  const self = 'current-operation';
  updaterUpdate(live, next, managed.fields, self, updaterOptions(ctx));
  stripFields(managed, self);
  const vs = managed.fields.get(self);
  if (vs !== undefined) {
    managed.fields.delete(self);
    const previous = managed.fields.get(id);
    managed.fields.set(id, previous === undefined ? vs : withSet(vs, vs.set.union(previous.set)));
    managed.times.set(id, formatTime(ctx.now));
  }
  capUpdateManagers(managed, MAX_UPDATE_MANAGERS);
}

/**
 * The Apply chain below lastappliedmanager: skipnonapplied (untracked fields go to
 * `before-first-apply`), buildmanagerinfo, managedfieldsupdater, stripmeta, structuredmerge.
 * Returns the new object, or undefined for a no-op. `managed` is changed in place.
 */
function applyChain(
  live: unknown,
  config: unknown,
  managed: Managed,
  manager: string,
  force: boolean,
  ctx: FieldManagerContext,
): unknown {
  if (managed.fields.size === 0) updateChain(ctx.empty, live, managed, 'before-first-apply', ctx);
  const id = managerIdentifier({
    manager: managerName(manager),
    operation: 'Apply',
    subresource: ctx.subresource,
  });
  const next = updaterApply(live, config, managed.fields, id, force, updaterOptions(ctx));
  stripFields(managed, id);
  if (next !== undefined) managed.times.set(id, formatTime(ctx.now));
  return next;
}

/**
 * lastappliedmanager.go `Apply`: for the manager `kubectl` only, conflicts on fields the live
 * object's client-side apply annotation set (with their values unchanged since) are taken by
 * force, so `kubectl apply --server-side` follows a client-side apply without conflicts.
 */
export function applyWithLastApplied(
  live: unknown,
  config: unknown,
  managed: Managed,
  manager: string,
  force: boolean,
  ctx: FieldManagerContext,
  allowed: (live: unknown) => FieldSet | undefined,
): { object: unknown; managed: Managed } {
  const attempt = copyManaged(managed);
  try {
    return { object: applyChain(live, config, attempt, manager, force, ctx), managed: attempt };
  } catch (err) {
    if (manager !== 'kubectl' || !(err instanceof ConflictsError)) throw err;
    const allowedSet = allowed(live);
    if (allowedSet === undefined) throw err;
    const left = err.conflicts.filter((c) => !allowedSet.has(c.path));
    if (left.length > 0) throw new ConflictsError(left);
    const forced = copyManaged(managed);
    return { object: applyChain(live, config, forced, manager, true, ctx), managed: forced };
  }
}

/**
 * lastappliedupdater.go: after an apply by `kubectl` to an object that carries the client-side
 * annotation (even one that changed nothing else), the annotation is rewritten to the applied
 * configuration without the annotation, as `runtime.Encode` writes it (keys sorted, a final
 * newline); dropped when annotations would exceed their total size limit (lastapplied.go
 * `SetLastApplied`). Returns `object` itself when there is nothing to rewrite, else a copy with
 * new metadata (the object may share its metadata with the stored one).
 */
export function syncLastApplied(
  object: Record<string, unknown>,
  config: Record<string, unknown>,
  encode: (v: unknown) => string,
): Record<string, unknown> {
  const meta = object.metadata as Record<string, unknown> | undefined;
  const annotations = meta?.annotations as Record<string, string> | undefined;
  if (!annotations?.[LAST_APPLIED_ANNOTATION]) return object;
  const cmeta = config.metadata as Record<string, unknown> | undefined;
  const cann = cmeta?.annotations as Record<string, unknown> | undefined;
  let applied = config;
  if (cmeta && cann && LAST_APPLIED_ANNOTATION in cann) {
    const { [LAST_APPLIED_ANNOTATION]: _, ...rest } = cann;
    const { annotations: __, ...metaRest } = cmeta;
    applied = {
      ...config,
      metadata: Object.keys(rest).length === 0 ? metaRest : { ...metaRest, annotations: rest },
    };
  }
  const value = `${encode(applied)}\n`;
  if (annotations[LAST_APPLIED_ANNOTATION] === value) return object;
  const next: Record<string, string> = { ...annotations, [LAST_APPLIED_ANNOTATION]: value };
  let size = 0;
  for (const [k, v] of Object.entries(next)) size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete next[LAST_APPLIED_ANNOTATION];
  return { ...object, metadata: { ...meta, annotations: next } };
}

/** A bad request (400) with upstream's message. */
export function badRequest(message: string): StatusError {
  return StatusError.of('BadRequest', message);
}

export type { VersionedSet };
