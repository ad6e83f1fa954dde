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
import { ApplyError, type ApplyOptions, type ApplyResult, applyTarget } from './target.js';

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
  try {
    const applied = await resource.apply(object, {
      fieldManager: opts.fieldManager || SERVER_SIDE_APPLY_MANAGER,
      force: opts.force,
      dryRun: opts.dryRun,
      signal: opts.signal,
    });
    return {
      ref,
      action: 'serverside-applied',
      type,
      namespace,
      object: applied,
      dryRun: opts.dryRun ? 'server' : undefined,
    };
  } catch (err) {
    if (err instanceof StatusError) throw new ApplyError(ref, kubectlMessage(err), err);
    throw err;
  }
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
