/**
 * A pod's `exec`, `attach` and `portforward` (pkg/registry/core/pod/rest/subresources.go
 * `ExecREST`, `AttachREST`, `PortForwardREST`: connecters for GET and POST). The kubelet's
 * location is found as pkg/registry/core/pod/strategy.go `streamLocation` and
 * `PortForwardLocation` find it (the pod read, the container named or the only one, a node
 * assigned, the Node's address), then the request goes the way subresources.go sends it:
 *
 * - a v5 WebSocket (exec, attach) to the stream translator, which accepts the WebSocket and
 *   answers a kubelet it cannot reach with an internal error on the error stream;
 * - a WebSocket tunnelling port-forward's SPDY, and every other request, to the upgrade-aware
 *   proxy, which wants an upgrade (400 `Upgrade request required`) and dials the kubelet before
 *   answering (500 `error dialing backend: ...`).
 *
 * A kubelet that answers the dial (a simulated one listening on its Node's address) gets the
 * upgrade request itself and the two connections are joined, as the proxy does for a kubelet
 * that serves WebSockets (subresources.go, `ExtendWebSocketsToKubelet`).
 */
import type { Socket } from 'node:net';
import { StatusError } from '../../protocol/status.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { rec, str } from '../kinds/access.js';
import {
  answerOverWebSocket,
  isUpgradeRequest,
  isWebSocketWith,
  PORT_FORWARD_TUNNEL_PROTOCOL,
  STREAM_PROTOCOL_V5,
} from './connect-upgrade.js';
import {
  dialKubelet,
  internalStatus,
  type KubeletConnection,
  kubeletConnection,
  kubeletURL,
  validateContainer,
} from './kubelet-connection.js';
import { isNamed, type NamedScope, type RequestScope } from './request-scope.js';

/** The connect subresources of a pod. */
export type PodConnect = 'exec' | 'attach' | 'portforward';

/** A boolean connect option as the query parameter codec reads it (`true`, `1`, ...). */
function flag(scope: RequestScope, name: string): boolean {
  const v = scope.query.get(name);
  return v !== null && v !== '' && v !== 'false' && v !== '0';
}

/**
 * PodPortForwardOptions' `ports` as the conversion reads them: every value a comma-separated list
 * of 16-bit unsigned numbers (strconv.ParseUint's errors otherwise).
 */
function portForwardPorts(scope: RequestScope): string[] {
  const out: string[] = [];
  for (const value of scope.query.getAll('ports')) {
    for (const p of value.split(',')) {
      const syntax = /^[0-9]+$/.test(p);
      if (!syntax || Number(p) > 65535) {
        const why = syntax ? 'value out of range' : 'invalid syntax';
        throw StatusError.of(
          'BadRequest',
          `cannot convert to []int32: strconv.ParseUint: parsing ${JSON.stringify(p)}: ${why}`,
        );
      }
      out.push(String(Number(p)));
    }
  }
  return out;
}

/** The kubelet's query for a request (strategy.go `streamParams`). */
function streamParams(scope: RequestScope, what: PodConnect, ports: string[]): [string, string][] {
  if (what === 'portforward') return ports.length > 0 ? [['port', ports.join(',')]] : [];
  const params: [string, string][] = [];
  if (flag(scope, 'stdin')) params.push(['input', '1']);
  if (flag(scope, 'stdout')) params.push(['output', '1']);
  if (flag(scope, 'stderr')) params.push(['error', '1']);
  if (flag(scope, 'tty')) params.push(['tty', '1']);
  if (what === 'exec') for (const c of scope.query.getAll('command')) params.push(['command', c]);
  return params;
}

/** Serves GET and POST pods/<name>/{exec,attach,portforward}. */
export async function podConnect(scope: RequestScope, what: PodConnect): Promise<void> {
  if ((scope.method !== 'GET' && scope.method !== 'POST') || !isNamed(scope)) throw routeMethodNotAllowed();
  const ports = what === 'portforward' ? portForwardPorts(scope) : [];
  const pod = await scope.server.objects.get(scope.kind, scope.namespace, scope.name);
  const container = what === 'portforward' ? '' : validateContainer(pod, scope.query.get('container') ?? '');
  const nodeName = str(rec(pod.spec).nodeName);
  if (nodeName === '') throw StatusError.of('BadRequest', `pod ${scope.name} does not have a host assigned`);
  const conn = await kubeletConnection(scope, nodeName);
  const path =
    what === 'portforward'
      ? `/portForward/${scope.namespace}/${scope.name}`
      : `/${what}/${scope.namespace}/${scope.name}/${container}`;
  const location = kubeletURL(conn, path, streamParams(scope, what, ports));
  if (what !== 'portforward' && isWebSocketWith(scope, STREAM_PROTOCOL_V5)) {
    await translateStreams(scope, conn, location);
    return;
  }
  // The upgrade-aware proxy (k8s.io/apimachinery pkg/util/proxy upgradeaware.go) with
  // upgradeRequired; a port-forward WebSocket tunnel dials the kubelet first too.
  if (!isUpgradeRequest(scope) && !isWebSocketWith(scope, PORT_FORWARD_TUNNEL_PROTOCOL))
    throw StatusError.of('BadRequest', 'Upgrade request required');
  const backend = await dialKubelet(conn.hostname, conn.port).catch((err: Error) => {
    throw internalStatus(`error dialing backend: ${err.message}`);
  });
  joinUpgrade(scope, backend, location);
}

/**
 * The stream translator's side (streamtranslator.go): the WebSocket is accepted before the
 * kubelet is dialled, so a kubelet out of reach is an internal error on the error stream naming
 * the SPDY request it could not send.
 */
async function translateStreams(scope: NamedScope, conn: KubeletConnection, location: string): Promise<void> {
  const streams = { stdout: flag(scope, 'stdout'), stderr: flag(scope, 'stderr') };
  try {
    const backend = await dialKubelet(conn.hostname, conn.port);
    joinUpgrade(scope, backend, location);
  } catch (err) {
    answerOverWebSocket(
      scope,
      streams,
      `error sending request: Post "${location}": ${(err as Error).message}`,
    );
  }
}

/**
 * Sends the client's upgrade request on to the kubelet at `location` and joins the two sockets
 * (upgradeaware.go `tryUpgrade`): from then on bytes pass through both ways until one side ends.
 */
function joinUpgrade(scope: RequestScope, backend: Socket, location: string): void {
  const url = new URL(location);
  const lines = [`${scope.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  const raw = scope.req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === 'host' || name === 'authorization') continue;
    lines.push(`${raw[i]}: ${raw[i + 1]}`);
  }
  backend.write(`${lines.join('\r\n')}\r\n\r\n`);
  const client = scope.req.socket;
  scope.res.detachSocket(client);
  client.pipe(backend);
  backend.pipe(client);
  const close = () => {
    client.destroy();
    backend.destroy();
  };
  client.once('close', close);
  backend.once('close', close);
  client.once('error', close);
  backend.once('error', close);
}
