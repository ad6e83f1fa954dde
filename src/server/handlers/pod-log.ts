/**
 * A pod's `log` (pkg/registry/core/pod/rest/log.go `LogREST`, a getter only) where no kubelet
 * answers: the pod is read and the container named (or the only one) checked as
 * pkg/registry/core/pod/strategy.go `LogLocation` checks it; a pod no node runs yet has no
 * location, and kube-apiserver streams nothing: a 204 without a body.
 */
import { StatusError } from '../../protocol/status.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { objects, rec, str } from '../kinds/access.js';
import { notFound } from '../kinds/api-errors.js';
import { isNamed, type RequestScope } from './request-scope.js';

/** Every container's name, init and ephemeral ones included (`podutil.VisitContainers`' order). */
function containerNames(spec: Record<string, unknown>): string[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) =>
    objects(spec[k]).map((c) => str(c.name)),
  );
}

/** Serves GET pods/<name>/log. */
export async function podLog(scope: RequestScope): Promise<void> {
  if (scope.method !== 'GET' || !isNamed(scope)) throw routeMethodNotAllowed();
  const pod = await scope.server.objects.get(scope.kind, scope.namespace, scope.name);
  const spec = rec(pod.spec);
  const name = str(pod.metadata?.name);
  const container = scope.query.get('container') ?? '';
  if (container === '') {
    const containers = objects(spec.containers);
    if (containers.length === 0)
      throw StatusError.of('BadRequest', `a container name must be specified for pod ${name}`);
    if (containers.length > 1) {
      throw StatusError.of(
        'BadRequest',
        `a container name must be specified for pod ${name}, choose one of: [${containerNames(spec).join(' ')}]`,
      );
    }
  } else if (!containerNames(spec).includes(container)) {
    throw StatusError.of('BadRequest', `container ${container} is not valid for pod ${name}`);
  }
  if (str(spec.nodeName) === '') {
    scope.res.writeHead(204);
    scope.res.end();
    return;
  }
  // The kubelet's address comes from the Node (pkg/kubelet/client `NodeConnectionInfoGetter`),
  // whose getter's NotFound names the pods resource: `pods "<node>" not found`.
  const nodes = scope.server.kinds.findByPlural('', 'v1', 'nodes');
  const node = str(spec.nodeName);
  const found = nodes && (await scope.server.objects.get(nodes, undefined, node).catch(() => undefined));
  if (!found) throw notFound(scope.kind, node);
  // pkg/kubelet/client `GetConnectionInfo` finds no address to dial a Node without any: its error
  // is no Status, so a 500 without a reason. (A Node with addresses has a kubelet to dial, which
  // watchmark does not run: the same 500 names what is missing.)
  const addresses = objects(rec(found.status).addresses);
  const message =
    addresses.length === 0
      ? 'no preferred addresses found; known addresses: []'
      : `no kubelet listens for node ${node}`;
  throw new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code: 500,
  });
}
