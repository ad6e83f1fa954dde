/**
 * core/v1 `componentstatuses` (get, list): kube-apiserver's componentstatus `REST`
 * (pkg/registry/core/componentstatus/rest.go) probes each component when asked and stores
 * nothing: kube-scheduler's and kube-controller-manager's `/healthz` on their default ports, and
 * each etcd server. Its Table is printers.go `printComponentStatus`.
 *
 * watchmark runs no scheduler or controller manager as a process: their entries report what
 * listens on those ports (nothing, unless one was started beside it), as kube-apiserver's do. The
 * `etcd-0` entry is there over an etcd store only; the memory store is no server to probe.
 */
import type { KubeObject } from '../../../../protocol/events.js';
import { StatusError } from '../../../../protocol/status.js';
import { builtinKind } from '../../builtin.js';
import type { ComponentHealth, ResourceKind } from '../../types.js';

interface Condition {
  type?: string;
  status?: string;
  message?: string;
  error?: string;
}

/** `getComponentStatus`: one Healthy condition; an empty message or error is omitted. */
export function componentStatusOf(health: ComponentHealth): KubeObject {
  const condition: Condition = { type: 'Healthy', status: health.status };
  if (health.message) condition.message = health.message;
  if (health.error) condition.error = health.error;
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name: health.name },
    conditions: [condition],
  };
}

function conditionsOf(obj: KubeObject): Condition[] {
  return Array.isArray(obj.conditions) ? (obj.conditions as Condition[]) : [];
}

/**
 * printComponentStatus: `Healthy` when a Healthy condition is True (else `Unhealthy`), its
 * message and error; the first Healthy condition is read, `Unknown` without one.
 */
function healthyCondition(obj: KubeObject): { status: string; message: string; error: string } {
  const c = conditionsOf(obj).find((x) => x.type === 'Healthy');
  if (!c) return { status: 'Unknown', message: '', error: '' };
  return {
    status: c.status === 'True' ? 'Healthy' : 'Unhealthy',
    message: c.message ?? '',
    error: c.error ?? '',
  };
}

/** The ComponentStatuses' entry: get and list, each probing now. */
export const componentStatusKind: ResourceKind = builtinKind('', 'v1', 'componentstatuses', {
  virtual: {
    // The deprecation kube-apiserver's filter answers every request to v1 ComponentStatus with.
    deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
    async get(request, name) {
      const all = await request.services.componentHealth();
      const found = all.find((h) => h.name === name);
      if (!found) {
        throw StatusError.of('NotFound', `componentstatus "${name}" not found`, {
          name,
          kind: 'componentstatus',
        });
      }
      return componentStatusOf(found);
    },
    async list(request) {
      // A list's items are written without their own kind and apiVersion (the list's say it).
      return (await request.services.componentHealth()).map((h) => {
        const { kind: _k, apiVersion: _a, ...item } = componentStatusOf(h);
        return item as KubeObject;
      });
    },
  },
  cells: {
    Status: (obj) => healthyCondition(obj).status,
    Message: (obj) => healthyCondition(obj).message,
    Error: (obj) => healthyCondition(obj).error,
  },
});
