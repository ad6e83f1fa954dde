/**
 * `POST /api/v1/namespaces/NS/pods/NAME/binding`: how a scheduler assigns a pod to a node
 * (client-go `Pods(ns).Bind`, kube-scheduler's DefaultBinder). kube-apiserver's BindingREST
 * (pkg/registry/core/pod/storage/storage.go `Create`, `setPodHostAndAnnotations`, `assignPod`)
 * writes the pod straight to storage, past the pod strategy and the field manager: a bound pod's
 * managedFields name no manager for `spec.nodeName`.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError, successStatus } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { metaOf, rfc3339 } from '../registry/meta.js';
import { reply } from './reply.js';
import type { NamedScope } from './request-scope.js';
import type { ResourceContext } from './resource-context.js';
import { dryRun, readObject } from './write-input.js';

/** The pods/binding subresource: true for the core group's pods. */
export function servesBinding(kind: ResourceKind): boolean {
  return kind.group === '' && kind.plural === 'pods';
}

/** A core/v1 Binding. */
export interface Binding extends KubeObject {
  target?: { kind?: string; name?: string };
}

/** BindingREST.Create: validates the Binding, assigns the pod, answers a Success Status (201). */
export async function bindPod(scope: NamedScope): Promise<void> {
  const { server, req, kind, namespace, name, query } = scope;
  const binding = (await readObject(req)) as Binding;
  const meta = binding.metadata ?? {};
  if (meta.name !== name) {
    throw StatusError.of('BadRequest', 'name in URL does not match name in Binding object');
  }
  await assignPod(server, kind, namespace as string, binding, dryRun(query));
  // create.go: a Status answered by a create gets the create's code.
  const status = successStatus();
  status.code = 201;
  reply(scope, 201, status);
}

/**
 * BindingREST's `assignPod`: binds the pod the Binding names (`metadata.name`) in `namespace`
 * to its target node. Shared with core/v1 `bindings`, the same storage under another path.
 */
export async function assignPod(
  server: ResourceContext,
  kind: ResourceKind,
  namespace: string,
  binding: Binding,
  isDryRun: boolean,
): Promise<void> {
  const meta = binding.metadata ?? {};
  const name = meta.name ?? '';
  // validation.go `ValidatePodBinding`, returned as a plain aggregate: a 500 without a reason.
  const errors: string[] = [];
  const target = binding.target ?? {};
  if (target.kind && target.kind !== 'Node') {
    errors.push(`target.kind: Unsupported value: "${target.kind}": supported values: "Node", "<empty>"`);
  }
  if (!target.name) errors.push('target.name: Required value');
  if (errors.length > 0) {
    const text = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    throw StatusError.plain(text);
  }
  const node = target.name as string;
  const annotations = meta.annotations ?? {};
  await server.objects.guaranteedUpdate(kind, namespace, name, 'binding', { dryRun: isDryRun }, (pod) => {
    const podMeta = metaOf(pod);
    // assignPod's storage preconditions: the binding's uid and resourceVersion, when set
    // (kube-scheduler sends the pod's uid), answered as InterpretUpdateError answers them.
    if (meta.uid && meta.uid !== podMeta.uid) {
      throw podConflict(
        name,
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${podMeta.uid}`,
      );
    }
    if (meta.resourceVersion && meta.resourceVersion !== podMeta.resourceVersion) {
      throw podConflict(
        name,
        `Precondition failed: ResourceVersion in precondition: ${meta.resourceVersion}, ResourceVersion in object meta: ${podMeta.resourceVersion}`,
      );
    }
    if (podMeta.deletionTimestamp) {
      throw bindingConflict(name, `pod ${name} is being deleted, cannot be assigned to a host`);
    }
    const spec = (pod.spec ?? {}) as { nodeName?: string };
    if ((spec.nodeName ?? '') !== '') {
      throw bindingConflict(name, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
    }
    pod.spec = { ...spec, nodeName: node };
    podMeta.annotations = { ...podMeta.annotations, ...annotations };
    setScheduled(pod, server.clock.now());
    return pod;
  });
}

function podConflict(name: string, why: string): StatusError {
  return StatusError.of('Conflict', `Operation cannot be fulfilled on pods "${name}": ${why}`, {
    name,
    kind: 'pods',
  });
}

/** assignPod: an error that is no Status becomes a Conflict on pods/binding. */
function bindingConflict(name: string, why: string): StatusError {
  return StatusError.of('Conflict', `Operation cannot be fulfilled on pods/binding "${name}": ${why}`, {
    name,
    kind: 'pods/binding',
  });
}

/**
 * podutil.UpdatePodCondition with `{type: PodScheduled, status: True}`: the condition replaces the
 * old one whole (its reason and message go), keeping the old transition time when the status
 * was already True; a zero lastProbeTime is written as null.
 */
function setScheduled(pod: KubeObject, now: number): void {
  const status = (pod.status ?? {}) as { conditions?: Array<Record<string, unknown>> };
  const conditions = [...(status.conditions ?? [])];
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = at < 0 ? undefined : conditions[at];
  const condition = {
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : rfc3339(now),
  };
  if (at < 0) conditions.push(condition);
  else conditions[at] = condition;
  pod.status = { ...status, conditions };
}
