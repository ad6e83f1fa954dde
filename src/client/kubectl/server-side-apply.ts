/**
 * Server-side apply, as `kubectl apply --server-side`: each object is sent
 * whole as an `application/apply-patch+yaml` PATCH under one field manager
 * (`kubectl` unless `--field-manager`), and the server merges it, tracks who
 * owns each field, and answers 409 when another manager holds a field at
 * another value. Follows kubectl's apply.go (`applyOneObject`, the
 * `ServerSideApply` branch) for the request, the line printed and the errors.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { KubeClient } from '../client.js';
import { ResourceClient } from '../rest.js';
import { fieldOwners, managedFieldsOf, upgradeManagedFieldsPatch } from './csa-upgrade.js';
import {
  ApplyError,
  type ApplyOptions,
  type ApplyResult,
  applyTarget,
  LAST_APPLIED_ANNOTATION,
} from './target.js';

/**
 * The manager `kubectl apply --server-side` applies as (apply.go,
 * `fieldManagerServerSideApply`: `kubectl`, kept for compatibility with early
 * kubectl server-side apply; client-side apply writes as `kubectl-client-side-apply`).
 */
export const SERVER_SIDE_APPLY_MANAGER = 'kubectl';

/**
 * What kubectl prints after the server's message when an apply conflicts
 * (apply.go, `applyOneObject`), word for word: the server's message names
 * each field and its manager, this says what to do about them.
 */
export const CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

/** Options of {@link serverSideApplyObject}. */
export interface ServerSideApplyObjectOptions extends ApplyOptions {
  /** `--force-conflicts`: take the conflicting fields from their managers. */
  force?: boolean;
}

/**
 * Applies one object server-side. A conflict fails with an
 * {@link ApplyError} whose message is the server's (every conflicting field
 * and manager) followed by {@link CONFLICT_ADVICE}, and whose `cause` is the
 * {@link StatusError} with the server's Status (`details.causes` lists the
 * conflicts one by one).
 */
export async function serverSideApplyObject(
  kube: KubeClient,
  manifest: KubeObject,
  opts: ServerSideApplyObjectOptions = {},
): Promise<ApplyResult> {
  const { type, ref, namespace, object } = await applyTarget(kube, manifest, opts);
  if (!object.metadata?.name && object.metadata?.generateName) {
    throw new ApplyError(ref, `from ${object.metadata.generateName}: cannot use generate name with apply`);
  }
  const resource = new ResourceClient<KubeObject>(kube.transport, type, namespace);
  const applyOpts = {
    fieldManager: opts.fieldManager || SERVER_SIDE_APPLY_MANAGER,
    force: opts.force,
    dryRun: opts.dryRun,
    fieldValidation: opts.fieldValidation,
    signal: opts.signal,
  };
  let applied: KubeObject;
  try {
    applied = await resource.apply(object, applyOpts);
  } catch (err) {
    if (err instanceof StatusError) throw new ApplyError(ref, kubectlMessage(err), err);
    throw err;
  }
  const warnings: string[] = [];
  applied = await migrateFromClientSideApply(resource, object, applied, applyOpts, warnings);
  if (applied.metadata?.deletionTimestamp) {
    warnings.push(
      `Warning: Detected changes to resource ${applied.metadata.name} which is currently being deleted.`,
    );
  }
  return {
    ref,
    action: 'serverside-applied',
    type,
    namespace,
    object: applied,
    warning: warnings.length ? warnings.join('\n') : undefined,
    dryRun: opts.dryRun ? 'server' : undefined,
  };
}

/** The manager kubectl keeps the last-applied annotation under once it applies server-side (apply.go). */
export const LAST_APPLIED_MANAGER = 'kubectl-last-applied';

const LAST_APPLIED_PATH = ['metadata', 'annotations', LAST_APPLIED_ANNOTATION] as const;

/** kubectl's `maxPatchRetry`: migration patches tried this many times against concurrent writes. */
const MIGRATION_TRIES = 5;

type ApplyVerbOptions = Parameters<ResourceClient['apply']>[1];

/**
 * kubectl's steps after a server-side apply of an object client-side apply
 * managed (apply.go: `saveLastApplyAnnotationIfNecessary`, then
 * `migrateToSSAIfNecessary`, then the apply again so fields dropped from the
 * file go). Each failure is a warning, as in kubectl: the apply itself worked.
 */
async function migrateFromClientSideApply(
  resource: ResourceClient<KubeObject>,
  sent: KubeObject,
  live: KubeObject,
  opts: ApplyVerbOptions,
  warnings: string[],
): Promise<KubeObject> {
  let current = live;
  try {
    current = await keepLastApplied(resource, current, opts);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    warnings.push(
      `Warning: failed to migrate ${LAST_APPLIED_ANNOTATION} for Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ${err.message}`,
    );
    return current;
  }
  let migrated: KubeObject | undefined;
  try {
    migrated = await moveOwnership(resource, current, opts);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    warnings.push(
      `Warning: server rejected managed fields migration to Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ${err.message}`,
    );
    return current;
  }
  if (!migrated) return current;
  try {
    return await resource.apply(sent, opts);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    warnings.push(
      `Warning: failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply. Error: ${err.message}`,
    );
    return migrated;
  }
}

/**
 * Applies the last-applied annotation alone as {@link LAST_APPLIED_MANAGER}
 * when the manager is kubectl's default and no Apply manager owns it yet, so
 * server-side apply does not drop the annotation a later client-side apply needs.
 */
async function keepLastApplied(
  resource: ResourceClient<KubeObject>,
  current: KubeObject,
  opts: ApplyVerbOptions,
): Promise<KubeObject> {
  const annotation = current.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (opts.fieldManager !== SERVER_SIDE_APPLY_MANAGER || annotation === undefined) return current;
  if (fieldOwners(managedFieldsOf(current), 'Apply', LAST_APPLIED_PATH).length > 0) return current;
  const { name = '', namespace } = current.metadata ?? {};
  // kubectl sends this one with no PatchOptions (so no `force`): a patch, not the apply verb.
  return resource.patch(
    name,
    {
      apiVersion: current.apiVersion,
      kind: current.kind,
      metadata: { name, namespace, annotations: { [LAST_APPLIED_ANNOTATION]: annotation } },
    },
    'apply',
    {
      fieldManager: LAST_APPLIED_MANAGER,
      dryRun: opts.dryRun,
      fieldValidation: opts.fieldValidation,
      signal: opts.signal,
    },
  );
}

/**
 * Gives the fields of the Update managers owning the last-applied annotation
 * (client-side appliers) to this Apply manager; resolves with the object
 * after, or undefined when there was nothing to move. A 409 (a write in
 * between) reads the object again and recomputes, as kubectl.
 */
async function moveOwnership(
  resource: ResourceClient<KubeObject>,
  current: KubeObject,
  opts: ApplyVerbOptions,
): Promise<KubeObject | undefined> {
  const csaManagers = fieldOwners(managedFieldsOf(current), 'Update', LAST_APPLIED_PATH).map(
    (e) => e.manager ?? '',
  );
  let object = current;
  let lastError: unknown;
  for (let attempt = 0; attempt < MIGRATION_TRIES; attempt++) {
    const patch = upgradeManagedFieldsPatch(object, csaManagers, opts.fieldManager);
    if (!patch) return undefined;
    try {
      return await resource.patch(object.metadata?.name ?? '', patch, 'json', {
        fieldManager: opts.fieldManager,
        dryRun: opts.dryRun,
        fieldValidation: opts.fieldValidation,
        signal: opts.signal,
      });
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'Conflict')) throw err;
      lastError = err;
      object = await resource.get(object.metadata?.name ?? '', { signal: opts.signal });
    }
  }
  throw lastError;
}

/**
 * The line kubectl prints for a failed server-side apply. kubectl wraps a
 * conflict and a 415 in a plain error (so `cmdutil.CheckErr` prints them
 * after `error: `) and returns any other API error as is
 * (`Error from server (Reason): message`).
 */
export function kubectlMessage(err: StatusError): string {
  if (err.code === 415) return `Server-side apply not available on the server: (${err.message})`;
  // errors.IsConflict: the reason, not the code (AlreadyExists is a 409 too).
  if (err.reason === 'Conflict') return `${err.message}\n${CONFLICT_ADVICE}`;
  return err.reason
    ? `Error from server (${err.reason}): ${err.message}`
    : `Error from server: ${err.message}`;
}
