/**
 * What both kinds of `kubectl apply` share: the outcome types, kubectl's
 * name for an object (`deployment.apps/web`), and where an object from a
 * manifest goes (its type through the RESTMapper, its namespace from the
 * object, `-n` or the context).
 */
import type { KubeObject } from '../../protocol/events.js';
import type { KubeClient } from '../client.js';
import type { FieldValidation } from '../rest-options.js';
import { NoKindMatchError } from '../restmapper/restmapper.js';
import type { ResourceType } from '../watch/resources.js';

/** The annotation kubectl keeps the last applied configuration in. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * What apply did to one object: client-side apply's three words, or
 * `serverside-applied` (kubectl apply.go prints that for every server-side apply).
 */
export type ApplyAction = 'created' | 'configured' | 'unchanged' | 'serverside-applied';

/** The outcome for one object. */
export interface ApplyResult {
  /** kubectl's name for it: `deployment.apps/web`, `namespace/demo`. */
  ref: string;
  action: ApplyAction;
  type: ResourceType;
  /** The namespace it went to (undefined for cluster-scoped kinds). */
  namespace: string | undefined;
  /** The object as the server answered (for `unchanged`: as it was read). */
  object: KubeObject;
  /** kubectl's warning when the live object had no last-applied annotation. */
  warning?: string;
  /** Set when nothing was stored: `server` (the server ran the write as a dry run). */
  dryRun?: 'server';
}

/** Options of {@link applyObject} and {@link serverSideApplyObject}. */
export interface ApplyOptions {
  /** `-n`: the namespace for objects that name none; an object naming another one is an error, as in kubectl. */
  namespace?: string;
  /** Where the objects came from, for error messages (a file name or `STDIN`). */
  source?: string;
  signal?: AbortSignal;
  /** The object's type when the caller knows it already (skips the mapper). */
  type?: ResourceType;
  /** `--field-manager` (default `kubectl-client-side-apply`, or `kubectl` for server-side apply). */
  fieldManager?: string;
  /** `--validate` as the server's `fieldValidation` (kubectl's default: `Strict`). */
  fieldValidation?: FieldValidation;
  /** `--dry-run=server`: the server runs every step but stores nothing. */
  dryRun?: boolean;
}

/** An object that could not be applied; `message` reads like kubectl's. */
export class ApplyError extends Error {
  readonly ref: string;
  override readonly cause: unknown;

  constructor(ref: string, message: string, cause?: unknown) {
    super(message);
    this.name = 'ApplyError';
    this.ref = ref;
    this.cause = cause;
  }
}

/** kubectl's `kind.group/name` (`deployment.apps/web`, `configmap/settings`). */
export function refOf(type: Pick<ResourceType, 'group' | 'kind'>, name: string): string {
  const kind = type.kind.toLowerCase();
  return `${type.group ? `${kind}.${type.group}` : kind}/${name}`;
}

/** Where one manifest object goes: its type, kubectl's name for it, its namespace, and a copy carrying that namespace. */
export interface ApplyTarget {
  type: ResourceType;
  ref: string;
  namespace: string | undefined;
  object: KubeObject;
}

/**
 * Resolves a manifest object's type (the RESTMapper knows custom types) and
 * namespace, as kubectl's resource builder does (`DefaultNamespace()` writes
 * the namespace into the object; a cluster-scoped object carries none).
 */
export async function applyTarget(
  kube: KubeClient,
  manifest: KubeObject,
  opts: ApplyOptions,
): Promise<ApplyTarget> {
  const name = manifest.metadata?.name ?? '';
  const kind = manifest.kind ?? '';
  let type: ResourceType;
  try {
    type = opts.type ?? (await kube.mapper.kindFor(manifest.apiVersion ?? '', kind, opts.signal));
  } catch (err) {
    const hint = err instanceof NoKindMatchError ? ' (ensure CRDs are installed first)' : '';
    throw new ApplyError(
      `${kind.toLowerCase()}/${name}`,
      `${sourcePrefix(opts)}${(err as Error).message}${hint}`,
      err,
    );
  }
  const ref = refOf(type, name);
  const object = structuredClone(manifest);
  object.metadata ??= {};
  const namespace = type.namespaced ? namespaceFor(object, opts, kube.namespace, ref) : undefined;
  if (namespace !== undefined) object.metadata.namespace = namespace;
  else delete object.metadata.namespace;
  return { type, ref, namespace, object };
}

function namespaceFor(object: KubeObject, opts: ApplyOptions, contextNamespace: string, ref: string): string {
  const own = object.metadata?.namespace;
  if (own && opts.namespace && own !== opts.namespace) {
    throw new ApplyError(
      ref,
      `the namespace from the provided object ${JSON.stringify(own)} does not match the namespace ${JSON.stringify(opts.namespace)}. You must pass '--namespace=${own}' to perform this operation.`,
    );
  }
  return own || opts.namespace || contextNamespace;
}

/** `FILE: ` before a message about one of the file's objects. */
export function sourcePrefix(opts: ApplyOptions): string {
  return opts.source ? `${opts.source}: ` : '';
}
