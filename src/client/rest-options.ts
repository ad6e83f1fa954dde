/**
 * What the REST verbs of `ResourceClient` (rest.ts) take, and how those options
 * go on the wire: the write query (`dryRun`, `fieldManager`,
 * `fieldValidation`), a delete's DeleteOptions body, the patch content
 * types, as kube-apiserver's PatchOptions, CreateOptions and DeleteOptions
 * read them.
 */
import type { KubeObject } from '../protocol/events.js';

/** Patch flavours and their content types. */
export const PATCH_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** A patch flavour. */
export type PatchType = keyof typeof PATCH_TYPES;

/** What the server does with fields the type does not have or that appear twice (kubectl's `--validate`). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Options common to writes. */
export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  /** Sent as `fieldValidation` when set (the server's default is `Warn`; kubectl sends `Strict`). */
  fieldValidation?: FieldValidation;
  signal?: AbortSignal;
}

/**
 * Options of a server-side apply (`ResourceClient.apply`): kube-apiserver's
 * PatchOptions for an `application/apply-patch+yaml` PATCH.
 */
export interface ServerSideApplyOptions {
  /** Who owns the applied fields (required, as the server requires it); kubectl's is `kubectl`. */
  fieldManager: string;
  /** Take the fields other managers own instead of failing with 409 Conflict (`force=true`). */
  force?: boolean;
  /** Run every step on the server but store nothing (`dryRun=All`). */
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  signal?: AbortSignal;
}

/** Options of a list call. */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  signal?: AbortSignal;
}

/** Options of a delete. */
export interface DeleteOptions extends WriteOptions {
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
}

/** The autoscaling/v1 Scale subresource. */
export interface Scale extends KubeObject {
  spec: { replicas: number };
  status: { replicas: number; selector?: string };
}

/** The query parameters every write carries. */
export function writeQuery(opts: WriteOptions): Record<string, string | undefined> {
  return {
    dryRun: opts.dryRun ? 'All' : undefined,
    fieldManager: opts.fieldManager,
    fieldValidation: opts.fieldValidation,
  };
}

/** A delete's body: meta/v1 DeleteOptions. */
export function deleteBody(opts: DeleteOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (opts.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
  if (opts.preconditions) body.preconditions = opts.preconditions;
  if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
  return body;
}
