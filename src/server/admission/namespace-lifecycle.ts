/**
 * kube-apiserver's NamespaceLifecycle admission plugin
 * (k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle/admission.go,
 * `Lifecycle.Admit`), the rules it applies to writes:
 *
 * - the immortal namespaces cannot be deleted;
 * - a create in a namespace that does not exist is a 404, in a Terminating
 *   one a 403 with the `NamespaceTerminating` cause;
 * - everything else passes: updates and deletes in a Terminating namespace
 *   (the namespace controller's own deletes among them), and any write of a
 *   cluster-scoped object.
 *
 * The Statuses are worded exactly as the plugin words them: kubectl prints the
 * message, and client-go callers match the cause.
 *
 * Storage calls it first of the admission chain (registry/write-admission.ts
 * `NamespaceAdmission`), before the kind's own plugins and the webhooks, as
 * kube-apiserver's plugin order puts NamespaceLifecycle first.
 */
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import { qualifiedResource } from '../kinds/api-errors.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import type { NamespaceAdmission } from '../registry/write-admission.js';

/**
 * The namespaces no DELETE may remove. The plugin's `Register` builds its set
 * from `metav1.NamespaceDefault`, `NamespaceSystem` and `NamespacePublic`, the
 * same three in every release from 1.27 to 1.33 (and since). `kube-node-lease`
 * is not among them: upstream deletes it, and the system namespaces controller
 * (pkg/controlplane/controller/systemnamespaces) creates it again.
 */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/** The cause the plugin adds to a create refused in a Terminating namespace (`v1.NamespaceTerminatingCause`). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/**
 * lifecycle/admission.go `forceLiveLookupTTL`: for this long after a namespace delete passed
 * this plugin, a create there reads the namespace live whenever the cache still says Active.
 */
const FORCE_LIVE_LOOKUP_TTL_MS = 30_000;

/** What the plugin reads namespaces through. */
export interface NamespaceLifecycleDeps {
  /** The watch cache: the plugin's namespace lister. */
  cacher: Cacher;
  /**
   * The object storage, for a live read (the plugin's client): a function, as the storage is
   * built with this plugin in hand.
   */
  objects(): ObjectStorage;
  clock: Clock;
}

/** The NamespaceLifecycle admission plugin (`Lifecycle`). */
export class NamespaceLifecycle implements NamespaceAdmission {
  private readonly deps: NamespaceLifecycleDeps;
  private readonly namespaces: ResourceKind = findByKind('v1', 'Namespace')!;
  /** Namespaces deleted through this server lately, and until when a lookup of each is live. */
  private readonly forceLiveLookup = new Map<string, number>();

  constructor(deps: NamespaceLifecycleDeps) {
    this.deps = deps;
  }

  /**
   * `Admit` for a create: the namespace is read from the cache (the lister), and live when the
   * cache has none (the "last resort" call to storage: a namespace created a moment ago through
   * another server) or says Active for one deleted through this server within the TTL (the
   * cache may be slow to show it Terminating). Then {@link admitCreate} judges.
   */
  async admitCreate(kind: ResourceKind, namespace: string, obj: KubeObject): Promise<void> {
    let stored = this.deps.cacher.cached(this.namespaces, undefined, namespace);
    if (!stored || (phaseOf(stored) !== 'Terminating' && this.deletedLately(namespace)))
      stored = await this.getLive(namespace);
    admitCreate(kind, namespace, obj, stored);
  }

  /** The namespace `name` read through the storage, or undefined when there is none. */
  private getLive(name: string): Promise<KubeObject | undefined> {
    return this.deps
      .objects()
      .get(this.namespaces, undefined, name)
      .catch((err: unknown) => {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      });
  }

  /**
   * `Admit` for a namespace delete: the immortal ones are refused; any other is remembered so
   * that creates there look it up live for a while (`forceLiveLookupCache.Add`).
   */
  admitNamespaceDelete(name: string): void {
    admitNamespaceDelete(name);
    const now = this.deps.clock.now();
    for (const [ns, until] of this.forceLiveLookup) if (until <= now) this.forceLiveLookup.delete(ns);
    this.forceLiveLookup.set(name, now + FORCE_LIVE_LOOKUP_TTL_MS);
  }

  private deletedLately(name: string): boolean {
    const until = this.forceLiveLookup.get(name);
    return until !== undefined && until > this.deps.clock.now();
  }
}

function phaseOf(ns: KubeObject): unknown {
  return (ns.status as { phase?: unknown } | undefined)?.phase;
}

/**
 * Throws the plugin's 403 when `name` is an immortal namespace: `Admit` answers
 * `errors.NewForbidden(namespaces, name, "this namespace may not be deleted")`
 * for an admission.Delete of a Namespace in the immortal set. A dryRun delete
 * is refused too: the namespace REST storage runs admission inside its update
 * (pkg/registry/core/namespace/storage/storage.go, `REST.Delete`), dryRun or not.
 */
export function admitNamespaceDelete(name: string): void {
  if (!IMMORTAL_NAMESPACES.has(name)) return;
  throw StatusError.of('Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, {
    name,
    kind: 'namespaces',
  });
}

/**
 * The plugin's check of a create of `obj` (of the namespaced `kind`) in
 * `namespace`, whose stored Namespace is `stored` (undefined when there is none).
 *
 * - No such namespace: the plugin's live lookup fails, and it returns the
 *   client's NotFound as is: `namespaces "x" not found`.
 * - `status.phase` Terminating (what `Admit` looks at; the namespace REST
 *   storage sets it with the deletionTimestamp): `admission.NewForbidden`,
 *   naming the object (apiserver pkg/admission/errors.go,
 *   `extractResourceName`: its name, else its generateName, else "Unknown"),
 *   plus the cause `NamespaceTerminating` on `metadata.namespace`.
 */
export function admitCreate(
  kind: ResourceKind,
  namespace: string,
  obj: KubeObject,
  stored: KubeObject | undefined,
): void {
  if (!stored) {
    throw StatusError.of('NotFound', `namespaces "${namespace}" not found`, {
      name: namespace,
      kind: 'namespaces',
    });
  }
  if (phaseOf(stored) !== 'Terminating') return;
  const name = admissionName(obj);
  throw StatusError.of(
    'Forbidden',
    `${qualifiedResource(kind)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
    {
      name,
      group: kind.group || undefined,
      kind: kind.plural,
      causes: [
        {
          reason: NAMESPACE_TERMINATING_CAUSE,
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    },
  );
}

/**
 * The name admission errors give a create (apiserver pkg/admission/errors.go
 * `extractResourceName`): the object's name, its generateName, or "Unknown".
 */
export function admissionName(obj: KubeObject): string {
  const meta = obj.metadata ?? {};
  if (typeof meta.name === 'string' && meta.name !== '') return meta.name;
  if (typeof meta.generateName === 'string' && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}
