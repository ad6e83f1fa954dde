/**
 * The upgrade side of the connect subresources (exec, attach, portforward): which protocol a
 * request asks for, and the WebSocket answers kube-apiserver gives before or instead of reaching
 * a kubelet (k8s.io/apimachinery pkg/util/httpstream `IsUpgradeRequest`, k8s.io/streaming
 * wsstream, k8s.io/apiserver pkg/util/proxy websocket.go).
 */
import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { RequestScope } from './request-scope.js';

/** The RFC 6455 GUID a `Sec-WebSocket-Accept` hashes with the key. */
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** The remote command protocol whose streams kube-apiserver translates to the kubelet's SPDY. */
export const STREAM_PROTOCOL_V5 = 'v5.channel.k8s.io';

/** The port-forward protocol kube-apiserver tunnels over a WebSocket. */
export const PORT_FORWARD_TUNNEL_PROTOCOL = 'SPDY/3.1+portforward.k8s.io';

/** A header's comma-separated tokens, trimmed. */
function tokens(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
  return joined
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** httpstream.go `IsUpgradeRequest`: a `Connection` header naming `upgrade`. */
export function isUpgradeRequest(scope: RequestScope): boolean {
  return tokens(scope.req.headers.connection).some((t) => t.toLowerCase() === 'upgrade');
}

/**
 * wsstream `IsWebSocketRequestWithStreamCloseProtocol` and `...WithTunnelingProtocol`: an upgrade
 * to `websocket` offering `protocol` in `Sec-WebSocket-Protocol`.
 */
export function isWebSocketWith(scope: RequestScope, protocol: string): boolean {
  if (!isUpgradeRequest(scope)) return false;
  if (String(scope.req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return tokens(scope.req.headers['sec-websocket-protocol']).includes(protocol);
}

/** One unmasked binary frame (a server's frames are never masked). */
function binaryFrame(payload: Buffer): Buffer {
  const n = payload.length;
  if (n < 126) return Buffer.concat([Buffer.from([0x82, n]), payload]);
  if (n < 65536) {
    const head = Buffer.from([0x82, 126, 0, 0]);
    head.writeUInt16BE(n, 2);
    return Buffer.concat([head, payload]);
  }
  const head = Buffer.alloc(10);
  head[0] = 0x82;
  head[1] = 127;
  head.writeBigUInt64BE(BigInt(n), 2);
  return Buffer.concat([head, payload]);
}

/** The close frame Go's websocket package sends on Close: status 1000, no reason. */
const NORMAL_CLOSE = Buffer.from([0x88, 0x02, 0x03, 0xe8]);

/** Which of the v5 streams a request opened (the exec and attach options). */
export interface StreamOptions {
  stdout: boolean;
  stderr: boolean;
}

/**
 * Go's json.Marshal of a Status raised as `apierrors.NewInternalError(err)`: no kind or
 * apiVersion (the translator marshals the bare Status), `<`, `>` and `&` escaped.
 */
function internalErrorJSON(message: string): string {
  const status = {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
  return JSON.stringify(status).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/**
 * Accepts a v5 WebSocket and ends it with `message` on the error stream, as kube-apiserver's
 * stream translator does when it cannot reach the kubelet (streamtranslator.go `ServeHTTP`):
 * the handshake with the v5 protocol, an empty message on the lowest writable stream (stdout,
 * else stderr, else the error stream: websocket.go `createWebSocketStreams`), the Status on
 * stream 3, and a normal close.
 */
export function answerOverWebSocket(scope: RequestScope, streams: StreamOptions, message: string): void {
  const key = String(scope.req.headers['sec-websocket-key'] ?? '');
  const accept = createHash('sha1').update(`${key}${WEBSOCKET_GUID}`).digest('base64');
  const socket: Duplex = scope.req.socket;
  const head =
    'HTTP/1.1 101 Switching Protocols\r\n' +
    'Upgrade: websocket\r\n' +
    'Connection: Upgrade\r\n' +
    `Sec-WebSocket-Accept: ${accept}\r\n` +
    `Sec-WebSocket-Protocol: ${STREAM_PROTOCOL_V5}\r\n\r\n`;
  const first = streams.stdout ? 1 : streams.stderr ? 2 : 3;
  socket.write(head);
  socket.write(binaryFrame(Buffer.from([first])));
  socket.write(binaryFrame(Buffer.concat([Buffer.from([3]), Buffer.from(internalErrorJSON(message))])));
  socket.end(NORMAL_CLOSE);
  // The response object never writes: the socket is the WebSocket's now.
  scope.res.detachSocket(scope.req.socket);
}
