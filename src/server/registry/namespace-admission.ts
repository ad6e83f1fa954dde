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
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { qualifiedResource } from './object-errors.js';

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
  if ((stored.status as { phase?: unknown } | undefined)?.phase !== 'Terminating') return;
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

/** The name admission errors give a create: the object's name, its generateName, or "Unknown". */
function admissionName(obj: KubeObject): string {
  const meta = obj.metadata ?? {};
  if (typeof meta.name === 'string' && meta.name !== '') return meta.name;
  if (typeof meta.generateName === 'string' && meta.generateName !== '') return meta.generateName;
  return 'Unknown';
}
