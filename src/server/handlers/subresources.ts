/**
 * The subresources served by a REST storage of their own rather than the generic status and
 * scale handlers (kube-apiserver's pkg/registry/<group>/<kind>/storage: BindingREST,
 * EvictionREST, LogREST, TokenREST, ...): one handler per `<group>/<plural>/<subresource>`. A
 * kind lists the name in its `subresources` (discovery takes the verbs from the reference's
 * table); the handler answers the methods its storage implements and a 405 for the rest.
 */

import { routeMethodNotAllowed } from '../http/request-info.js';
import type { ResourceKind } from '../kinds/types.js';
import { serveCsrApproval } from './csr-approval.js';
import { bindPod } from './pod-binding.js';
import { podConnect } from './pod-connect.js';
import { servePodEphemeralContainers } from './pod-ephemeral-containers.js';
import { evictPod } from './pod-eviction.js';
import { podLog } from './pod-log.js';
import { serveProxy } from './proxy.js';
import { isNamed, type RequestScope } from './request-scope.js';
import { requestToken } from './service-account-token.js';

/** Serves one request for a special subresource. */
export type SubresourceHandler = (scope: RequestScope) => Promise<void>;

const HANDLERS: Readonly<Record<string, SubresourceHandler>> = {
  // BindingREST is a NamedCreater only: POST, nothing else.
  '/pods/binding': (scope) => {
    if (scope.method !== 'POST' || !isNamed(scope)) throw routeMethodNotAllowed();
    return bindPod(scope);
  },
  // EvictionREST is a NamedCreater only, as BindingREST is.
  '/pods/eviction': (scope) => {
    if (scope.method !== 'POST' || !isNamed(scope)) throw routeMethodNotAllowed();
    return evictPod(scope);
  },
  // LogREST is a getter only, streaming from the pod's kubelet (pod-log.ts).
  '/pods/log': podLog,
  // ExecREST, AttachREST and PortForwardREST: connecters for GET and POST (pod-connect.ts).
  '/pods/exec': (scope) => podConnect(scope, 'exec'),
  '/pods/attach': (scope) => podConnect(scope, 'attach'),
  '/pods/portforward': (scope) => podConnect(scope, 'portforward'),
  // EphemeralContainersREST: a getter and an updater, as /status is.
  '/pods/ephemeralcontainers': servePodEphemeralContainers,
  // ResizeREST: the same getter and updater over the pod store, with podResizeStrategy.
  '/pods/resize': servePodEphemeralContainers,
  // The ProxyREST connecters of pods, services and nodes (proxy.ts).
  '/pods/proxy': serveProxy,
  '/services/proxy': serveProxy,
  '/nodes/proxy': serveProxy,
  // TokenREST is a NamedCreater only.
  '/serviceaccounts/token': (scope) => {
    if (scope.method !== 'POST' || !isNamed(scope)) throw routeMethodNotAllowed();
    return requestToken(scope);
  },
  // ApprovalREST: a getter and an updater, as /status is.
  'certificates.k8s.io/certificatesigningrequests/approval': serveCsrApproval,
};

/** The handler of `kind`'s subresource `name`, or undefined when the generic handlers serve it. */
export function subresourceHandler(kind: ResourceKind, name: string): SubresourceHandler | undefined {
  if (kind.custom) return undefined;
  return HANDLERS[`${kind.group}/${kind.plural}/${name}`];
}

/** The RBAC verb of a request on a resource (requestinfo.go `NewRequestInfo`). */
export function verbOf(method: string, named: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
