/**
 * How kube-apiserver reaches a node's kubelet, shared by the pod subresources a kubelet serves
 * (log, exec, attach, portforward) and nodes/proxy: the Node read by name, its preferred address
 * and its kubelet port (pkg/kubelet/client/kubelet_client.go `NodeConnectionInfoGetter`), and a
 * real TCP dial of that address whose failure is worded as Go's net package words it, so a
 * client sees what it sees against kube-apiserver when no kubelet listens there. Nothing here
 * knows the simulation: a simulated kubelet that listens on its Node's address is reached like
 * any other.
 */
import { getServers } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { StatusError } from '../../protocol/status.js';
import { objects, rec, str } from '../kinds/access.js';
import { notFound } from '../kinds/api-errors.js';
import type { RequestScope } from './request-scope.js';

/** Where a node's kubelet listens (kubelet_client.go `ConnectionInfo`). */
export interface KubeletConnection {
  scheme: 'https';
  hostname: string;
  port: string;
}

/**
 * kube-apiserver's `--kubelet-preferred-address-types` default
 * (pkg/kubeapiserver/options/kubelet.go): the order a Node's addresses are tried in.
 */
const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** kube-apiserver's `--kubelet-port` default. */
const DEFAULT_KUBELET_PORT = 10250;

/** How long kube-apiserver's dialer waits for a TCP connection (its 30 s dial timeout). */
const DIAL_TIMEOUT_MS = 30_000;

/** A 500 without a reason: what kube-apiserver answers for an error that is no Status. */
export function internalStatus(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code: 500,
  });
}

/**
 * The kubelet of node `nodeName` (kubelet_client.go `GetConnectionInfo`): the Node read (its
 * getter's NotFound names the request's resource, `pods "<node>"` on a pod's path), its first
 * address of the preferred types (pkg/util/node `GetPreferredNodeAddress`, whose error is no
 * Status: a 500), and the port the kubelet reported or the default.
 */
export async function kubeletConnection(scope: RequestScope, nodeName: string): Promise<KubeletConnection> {
  const nodes = scope.server.kinds.findByPlural('', 'v1', 'nodes');
  const node = nodes && (await scope.server.objects.get(nodes, undefined, nodeName).catch(() => undefined));
  if (!node) throw notFound(scope.kind, nodeName);
  const status = rec(node.status);
  const addresses = objects(status.addresses);
  let hostname: string | undefined;
  for (const type of PREFERRED_ADDRESS_TYPES) {
    hostname = addresses.find((a) => a.type === type)?.address as string | undefined;
    if (hostname !== undefined) break;
  }
  if (hostname === undefined) {
    // %v of []NodeAddress: `[{Type Address} ...]`.
    const known = addresses.map((a) => `{${str(a.type)} ${str(a.address)}}`).join(' ');
    throw internalStatus(`no preferred addresses found; known addresses: [${known}]`);
  }
  const reported = Number(rec(rec(status.daemonEndpoints).kubeletEndpoint).Port ?? 0);
  const port = reported > 0 ? reported : DEFAULT_KUBELET_PORT;
  return { scheme: 'https', hostname, port: String(port) };
}

/** `host:port` as Go's `net.JoinHostPort` writes it (an IPv6 address in brackets). */
export function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The kubelet URL of `path` and `query` (Go's `url.Values.Encode`: keys sorted). */
export function kubeletURL(conn: KubeletConnection, path: string, query: [string, string][]): string {
  const sorted = [...query].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const q = sorted.map(([k, v]) => `${goQueryEscape(k)}=${goQueryEscape(v)}`).join('&');
  return `${conn.scheme}://${joinHostPort(conn.hostname, conn.port)}${path}${q ? `?${q}` : ''}`;
}

/** Go's `url.QueryEscape`: spaces as `+`, and `~` left alone as encodeURIComponent leaves it. */
function goQueryEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Dials `host:port` over TLS as kube-apiserver's kubelet transport does (the kubelet's serving
 * certificate is not verified without `--kubelet-certificate-authority`). Resolves the socket, or
 * rejects with an Error whose message is Go's dial error (`dial tcp 127.0.0.1:1: connect:
 * connection refused`).
 */
export function dialKubelet(host: string, port: string, timeoutMs = DIAL_TIMEOUT_MS): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host,
      port: Number(port),
      rejectUnauthorized: false,
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new Error(goDialError(host, port, err)));
    };
    const timer = setTimeout(
      () => fail(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** A Node.js socket error in Go's net package's words. */
export function goDialError(host: string, port: string, err: NodeJS.ErrnoException): string {
  const target = joinHostPort(host, port);
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${target}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${target}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${target}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${target}: i/o timeout`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host} on ${joinHostPort(getServers()[0] ?? '127.0.0.1', '53')}: no such host`;
    default:
      return `dial tcp ${target}: ${err.message}`;
  }
}

/** Every container's name, init and ephemeral ones included (`podutil.VisitContainers`' order). */
export function containerNames(spec: Record<string, unknown>): string[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) =>
    objects(spec[k]).map((c) => str(c.name)),
  );
}

/**
 * The container a request names, or the pod's only one (pkg/registry/core/pod/strategy.go
 * `validateContainer`): 400s naming the pod.
 */
export function validateContainer(pod: Record<string, unknown>, container: string): string {
  const spec = rec(pod.spec);
  const name = str(rec(pod.metadata).name);
  if (container === '') {
    const containers = objects(spec.containers);
    if (containers.length === 1) return str(containers[0].name);
    if (containers.length === 0)
      throw StatusError.of('BadRequest', `a container name must be specified for pod ${name}`);
    throw StatusError.of(
      'BadRequest',
      `a container name must be specified for pod ${name}, choose one of: [${containerNames(spec).join(' ')}]`,
    );
  }
  if (!containerNames(spec).includes(container))
    throw StatusError.of('BadRequest', `container ${container} is not valid for pod ${name}`);
  return container;
}
