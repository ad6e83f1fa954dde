/**
 * Client-side apply, as `kubectl apply` (without --server-side): each object
 * carries its own last-applied configuration in an annotation, and an update
 * is a three-way strategic merge patch (original = last applied, modified =
 * the file, current = live), so a field removed from the file is removed
 * from the cluster while fields other writers own are left alone.
 */
import type { KubeObject } from '../../protocol/events.js';
import { isStrategicMergeKind } from '../../protocol/patch/index.js';
import { StatusError } from '../../protocol/status.js';
import type { KubeClient } from '../client.js';
import { ResourceClient } from '../rest.js';
import { retryOnConflict } from '../retry.js';
import { builtinByKind, type ResourceType } from '../watch/resources.js';
import { crdDefinition, waitForCustomKind } from './crd-wait.js';
import { goJson } from './manifest.js';
import { serverSideApplyObject } from './server-side-apply.js';
import {
  ApplyError,
  type ApplyOptions,
  type ApplyResult,
  applyTarget,
  LAST_APPLIED_ANNOTATION,
  sourcePrefix,
} from './target.js';
import { threeWayPatch } from './three-way.js';

export { LAST_APPLIED_ANNOTATION } from './target.js';

/** The field manager kubectl's client-side apply writes as. */
export const CLIENT_SIDE_APPLY_MANAGER = 'kubectl-client-side-apply';

export { type ApplyAction, ApplyError, type ApplyOptions, type ApplyResult, refOf } from './target.js';

/** Options of {@link applyAll}. */
export interface ApplyAllOptions extends Omit<ApplyOptions, 'type'> {
  onResult?: (result: ApplyResult) => void;
  onError?: (err: ApplyError) => void;
  /**
   * How long to wait for a CustomResourceDefinition applied earlier in the
   * batch to be Established and served before applying objects of its kind
   * (default 30 s; see crd-wait.ts).
   */
  crdWaitMs?: number;
  /**
   * `--server-side`: apply each object server-side (server-side-apply.ts),
   * as `fieldManager` (default `kubectl`), taking conflicting fields when `force`.
   */
  serverSide?: { force?: boolean };
  /** Each object's own source (the file of a directory it came from), by index; else `source`. */
  sources?: readonly string[];
}

/**
 * The value kubectl writes to {@link LAST_APPLIED_ANNOTATION}: the object
 * as applied (namespace filled in, its own last-applied annotation removed,
 * `annotations` present even if empty) as compact, key-sorted JSON plus a
 * newline (Go's json.Encoder ends every value with one).
 */
export function lastAppliedConfiguration(object: KubeObject): string {
  const copy = structuredClone(object);
  copy.metadata ??= {};
  const metadata = copy.metadata;
  const annotations = { ...(metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED_ANNOTATION];
  metadata.annotations = annotations;
  return `${goJson(copy)}\n`;
}

/**
 * Applies one object: creates it when absent (with the last-applied
 * annotation), else patches it with the three-way patch, or leaves it alone
 * when that patch is empty. A 409 Conflict re-reads and retries, as kubectl.
 */
export async function applyObject(
  kube: KubeClient,
  manifest: KubeObject,
  opts: ApplyOptions = {},
): Promise<ApplyResult> {
  const name = manifest.metadata?.name ?? '';
  const kind = manifest.kind ?? '';
  const apiVersion = manifest.apiVersion ?? '';
  const { type, ref, namespace, object } = await applyTarget(kube, manifest, opts);
  const dryRun = opts.dryRun ? ('server' as const) : undefined;
  const modifiedJson = lastAppliedConfiguration(object);
  const modified = JSON.parse(modifiedJson) as KubeObject;
  modified.metadata!.annotations![LAST_APPLIED_ANNOTATION] = modifiedJson;
  const resource = new ResourceClient<KubeObject>(kube.transport, type, namespace);
  const write = {
    fieldManager: opts.fieldManager || CLIENT_SIDE_APPLY_MANAGER,
    fieldValidation: opts.fieldValidation,
    signal: opts.signal,
    dryRun: opts.dryRun,
  };
  let phase = 'retrieving current configuration of';
  let raced = false;
  const attempt = async (): Promise<ApplyResult> => {
    phase = 'retrieving current configuration of';
    const live = await resource.find(name, { signal: opts.signal });
    if (!live) {
      phase = 'creating';
      try {
        const created = await resource.create(modified, write);
        return { ref, action: 'created', type, namespace, object: created, dryRun };
      } catch (err) {
        // Created by another applier since the read (two files sharing a namespace): apply to theirs, once.
        if (raced || !(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
        raced = true;
        return attempt();
      }
    }
    const lastApplied = live.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
    const original = lastApplied ? parseLastApplied(lastApplied) : undefined;
    // Kinds without strategic merge metadata (custom resources) patch as JSON merge patch, as kubectl.
    const strategic = builtinByKind(apiVersion, kind) !== undefined && isStrategicMergeKind(kind);
    const patch = threeWayPatch(original, modified, live, strategic ? kind : '');
    const warning = lastApplied
      ? undefined
      : `Warning: resource ${type.plural}/${name} is missing the ${LAST_APPLIED_ANNOTATION} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.`;
    if (Object.keys(patch).length === 0)
      return { ref, action: 'unchanged', type, namespace, object: live, warning, dryRun };
    phase = 'applying patch to';
    const patched = await resource.patch(name, patch, strategic ? 'strategic' : 'merge', write);
    return { ref, action: 'configured', type, namespace, object: patched, warning, dryRun };
  };
  try {
    return await retryOnConflict(attempt);
  } catch (err) {
    if (err instanceof StatusError) {
      const what = phase === 'creating' ? '' : ` ${ref} from`;
      throw new ApplyError(
        ref,
        `Error from server (${err.reason ?? err.code}): error when ${phase}${what} ${JSON.stringify(opts.source ?? 'STDIN')}: ${err.message}`,
        err,
      );
    }
    throw err;
  }
}

/**
 * Applies objects in order, as `kubectl apply -f`: a failing object is
 * reported through `onError` and the rest still go; resolves with what was
 * applied. `onResult` sees each outcome as it happens. Unlike kubectl, an
 * object whose kind a CustomResourceDefinition earlier in the batch defines
 * waits until that CRD is Established and served (bounded by `crdWaitMs`),
 * so a CRD and its objects apply from one file in one go.
 */
export async function applyAll(
  kube: KubeClient,
  objects: KubeObject[],
  opts: ApplyAllOptions = {},
): Promise<{ results: ApplyResult[]; errors: ApplyError[] }> {
  const results: ApplyResult[] = [];
  const errors: ApplyError[] = [];
  /** CRDs applied in this batch, by `group/kind`; the value is set once its kind is served. */
  const crds = new Map<string, { name: string; served?: Promise<ResourceType> }>();
  for (const [i, object] of objects.entries()) {
    const each = { ...opts, source: opts.sources?.[i] ?? opts.source };
    try {
      const type = await customKindReady(kube, object, crds, each);
      const result = opts.serverSide
        ? await serverSideApplyObject(kube, object, { ...each, ...opts.serverSide, type })
        : await applyObject(kube, object, { ...each, type });
      results.push(result);
      opts.onResult?.(result);
      const defined = crdDefinition(object);
      if (defined) crds.set(`${defined.group}/${defined.kind}`, { name: defined.name });
    } catch (err) {
      if (!(err instanceof ApplyError)) throw err;
      errors.push(err);
      opts.onError?.(err);
    }
  }
  return { results, errors };
}

/** For an object of a kind a CRD of this batch defines: waits for that CRD, and gives the type. */
async function customKindReady(
  kube: KubeClient,
  object: KubeObject,
  crds: Map<string, { name: string; served?: Promise<ResourceType> }>,
  opts: ApplyAllOptions,
): Promise<ResourceType | undefined> {
  const apiVersion = object.apiVersion ?? '';
  const kind = object.kind ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const crd = crds.get(`${group}/${kind}`);
  if (!crd) return undefined;
  crd.served ??= waitForCustomKind(kube, crd.name, apiVersion, kind, {
    timeoutMs: opts.crdWaitMs,
    signal: opts.signal,
  });
  try {
    return await crd.served;
  } catch (err) {
    crd.served = undefined;
    const ref = `${kind.toLowerCase()}.${group}/${object.metadata?.name ?? ''}`;
    throw new ApplyError(ref, `${sourcePrefix(opts)}${(err as Error).message}`, err);
  }
}

function parseLastApplied(text: string): KubeObject | undefined {
  try {
    return JSON.parse(text) as KubeObject;
  } catch {
    // kubectl fails here; a hand-edited annotation should not block an apply, so treat it as absent.
    return undefined;
  }
}
