/**
 * The `proxy` subresource of pods, services and nodes (ProxyREST of
 * pkg/registry/core/{pod/rest,service/storage,node/rest}: connecters for GET, POST, PUT, PATCH,
 * DELETE, HEAD and OPTIONS, the rest of the path after `proxy/` passed on). The name may carry a
 * port and a scheme (`name:port`, `scheme:name:port`: apimachinery's `SplitSchemeNamePort`); the
 * location is found as each kind's `ResourceLocation` finds it, and the request is forwarded
 * there by an ordinary reverse proxy (upgradeaware.go without upgradeRequired).
 */

import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { StatusError } from '../../protocol/status.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { objects, rec, str } from '../kinds/access.js';
import { goDialError, internalStatus, joinHostPort, kubeletConnection } from './kubelet-connection.js';
import { isNamed, type NamedScope, type RequestScope } from './request-scope.js';

const PROXY_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Where a proxied request goes. */
interface Location {
  scheme: string;
  hostPort: string;
  /** The kubelet's certificate is not verified (kube-apiserver's kubelet transport). */
  insecure: boolean;
}

/** port_split.go `SplitSchemeNamePort`: undefined when the id is not one of its three forms. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) [name] = parts;
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  else return undefined;
  if (name === '' || !['', 'http', 'https'].includes(scheme)) return undefined;
  return { scheme, name, port };
}

/** Go's `net.IP.IsGlobalUnicast` of an address literal. */
export function isGlobalUnicast(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number);
    if (a === 0 || a === 127 || a >= 224 || (a === 169 && b === 254)) return false;
    return ip !== '255.255.255.255';
  }
  if (v === 6) {
    const lower = ip.toLowerCase();
    if (lower === '::' || lower === '::1') return false;
    if (/^fe[89ab]/.test(lower) || lower.startsWith('ff')) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped ? isGlobalUnicast(mapped[1]) : true;
  }
  return false;
}

/** The object id the path names, and the path after `proxy`. */
function proxyTarget(scope: NamedScope): { id: string; path: string } {
  const raw = (scope.req.url ?? '').split('?')[0];
  const marker = `/${encodeURIComponent(scope.name)}/proxy`;
  let at = raw.indexOf(marker);
  if (at < 0) at = raw.indexOf(`/${scope.name}/proxy`);
  const rest = at < 0 ? '' : raw.slice(at + marker.length);
  return { id: scope.name, path: rest === '' ? '/' : rest };
}

/** pod strategy.go `ResourceLocation`: the pod's first IP, the port named or its first container port. */
async function podLocation(scope: NamedScope, id: string): Promise<Location> {
  const split = splitSchemeNamePort(id);
  if (!split) throw StatusError.of('BadRequest', `invalid pod request ${JSON.stringify(id)}`);
  const pod = await scope.server.objects.get(scope.kind, scope.namespace, split.name);
  let { port } = split;
  if (port === '') {
    const withPorts = objects(rec(pod.spec).containers).find((c) => objects(c.ports).length > 0);
    if (withPorts) port = String(objects(withPorts.ports)[0].containerPort);
  }
  const podIP = str(objects(rec(pod.status).podIPs)[0]?.ip);
  if (!isGlobalUnicast(podIP)) throw StatusError.of('BadRequest', 'address not allowed');
  const hostPort = port === '' ? (podIP.includes(':') ? `[${podIP}]` : podIP) : joinHostPort(podIP, port);
  return { scheme: split.scheme || 'http', hostPort, insecure: false };
}

/** service storage.go `ResourceLocation`: a ready endpoint of the port, on a pod of the namespace. */
async function serviceLocation(scope: NamedScope, id: string): Promise<Location> {
  const split = splitSchemeNamePort(id);
  if (!split) throw StatusError.of('BadRequest', `invalid service request ${JSON.stringify(id)}`);
  const { name } = split;
  let portName = split.port;
  if (/^[+-]?[0-9]+$/.test(portName)) {
    const number = Number(portName);
    const svc = await scope.server.objects.get(scope.kind, scope.namespace, name);
    const port = objects(rec(svc.spec).ports).find((p) => p.port === number);
    if (!port)
      throw StatusError.of(
        'ServiceUnavailable',
        `no service port ${number} found for service ${JSON.stringify(name)}`,
      );
    portName = str(port.name);
  }
  const noEndpoints = () =>
    StatusError.of('ServiceUnavailable', `no endpoints available for service ${JSON.stringify(name)}`);
  const slicesKind = scope.server.kinds.findByPlural('discovery.k8s.io', 'v1', 'endpointslices');
  const podsKind = scope.server.kinds.findByPlural('', 'v1', 'pods');
  if (!slicesKind || !podsKind) throw noEndpoints();
  const slices = (await scope.server.objects.list(slicesKind, scope.namespace ?? '')).filter(
    (s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name,
  );
  // apiserver pkg/util/proxy `RandomEndpoint`: the first ready endpoint that is a pod's address.
  for (const slice of slices) {
    for (const port of objects(slice.ports)) {
      if (port.name !== portName || typeof port.port !== 'number') continue;
      for (const ep of objects(slice.endpoints)) {
        if (rec(ep.conditions).ready === false) continue;
        const address = str((ep.addresses as unknown[] | undefined)?.[0]);
        const ref = rec(ep.targetRef);
        if (ref.namespace !== scope.namespace || typeof ref.name !== 'string') continue;
        const pod = await scope.server.objects
          .get(podsKind, scope.namespace, ref.name)
          .catch(() => undefined);
        if (!pod || !objects(rec(pod.status).podIPs).some((ip) => ip.ip === address)) continue;
        return {
          scheme: split.scheme || 'http',
          hostPort: joinHostPort(address, String(port.port)),
          insecure: false,
        };
      }
    }
  }
  throw noEndpoints();
}

/** node strategy.go `ResourceLocation`: the kubelet, or another port of the node's address. */
async function nodeLocation(scope: NamedScope, id: string): Promise<Location> {
  const split = splitSchemeNamePort(id);
  if (!split) throw StatusError.of('BadRequest', `invalid node request ${JSON.stringify(id)}`);
  const conn = await kubeletConnection(scope, split.name);
  // isProxyableHostname: every address the name resolves to must be a global unicast one.
  let addresses: string[];
  try {
    addresses = isIP(conn.hostname)
      ? [conn.hostname]
      : (await lookup(conn.hostname, { all: true })).map((a) => a.address);
  } catch (err) {
    const message = goDialError(conn.hostname, conn.port, err as NodeJS.ErrnoException).replace(
      /^dial tcp: /,
      '',
    );
    throw StatusError.of('BadRequest', message);
  }
  if (!addresses.every(isGlobalUnicast)) throw StatusError.of('BadRequest', 'address not allowed');
  if (split.port === '' || split.port === conn.port)
    return { scheme: conn.scheme, hostPort: joinHostPort(conn.hostname, conn.port), insecure: true };
  return {
    scheme: split.scheme || 'http',
    hostPort: joinHostPort(conn.hostname, split.port),
    insecure: false,
  };
}

/** Serves pods/<id>/proxy[/path], services/<id>/proxy[/path] and nodes/<id>/proxy[/path]. */
export async function serveProxy(scope: RequestScope): Promise<void> {
  if (!PROXY_METHODS.has(scope.method) || !isNamed(scope)) {
    throw routeMethodNotAllowed();
  }
  const { id, path } = proxyTarget(scope);
  const location =
    scope.kind.plural === 'pods'
      ? await podLocation(scope, id)
      : scope.kind.plural === 'services'
        ? await serviceLocation(scope, id)
        : await nodeLocation(scope, id);
  await forward(scope, location, path);
}

/** Forwards the request to `location` and streams the answer back. */
function forward(scope: RequestScope, location: Location, path: string): Promise<void> {
  const search = (scope.req.url ?? '').includes('?') ? `?${(scope.req.url ?? '').split('?')[1]}` : '';
  const url = `${location.scheme}://${location.hostPort}${path}${search}`;
  const headers = { ...scope.req.headers };
  delete headers.authorization;
  delete headers.host;
  const send = location.scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const upstream = send(
      url,
      { method: scope.method, headers, rejectUnauthorized: !location.insecure },
      (res) => {
        scope.res.writeHead(res.statusCode ?? 502, res.headers);
        res.pipe(scope.res);
        res.once('end', () => resolve());
        res.once('error', reject);
      },
    );
    upstream.once('error', (err: NodeJS.ErrnoException) => {
      const [host, port] = splitHostPort(location.hostPort);
      reject(internalStatus(goDialError(host, port, err)));
    });
    scope.req.pipe(upstream);
  });
}

function splitHostPort(hostPort: string): [string, string] {
  const m = /^\[(.*)\]:(\d+)$/.exec(hostPort) ?? /^(.*):(\d+)$/.exec(hostPort);
  return m ? [m[1], m[2]] : [hostPort.replace(/^\[|\]$/g, ''), '80'];
}
