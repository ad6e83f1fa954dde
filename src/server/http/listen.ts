/**
 * The listening socket of an API server: plain HTTP or TLS (a throwaway
 * serving certificate when none is given), the header-size limit and the
 * timeouts that long watch connections need, and the URL clients reach.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../protocol/clock.js';
import { tlsClientAuthOptions } from './auth.js';

/**
 * How large a request line plus headers may be: kube-apiserver serves with Go's
 * `MaxHeaderBytes: 1 << 20` (k8s.io/apiserver/pkg/server/secure_serving.go,
 * `SecureServingInfo.Serve`), and Go's server reads 4096 bytes past it before
 * answering 431. Node's own default is 16 KiB, which refuses a 20 KB label
 * selector that kube-apiserver takes.
 */
const MAX_HEADER_BYTES = (1 << 20) + 4096;

/** Where and how to listen. */
export interface ListenOptions {
  insecureHttp?: boolean;
  tls?: { certPem: string; keyPem: string; caPem?: string };
  clientCA?: string;
  bindAddress: string;
  port?: number;
  clock: Clock;
}

/** A socket that listens. */
export interface Listener {
  http: Server;
  /** `http(s)://host:port`, with a wildcard bind address reached over 127.0.0.1. */
  url: string;
  /** The CA clients must trust; undefined over plain HTTP. */
  caPem: string | undefined;
}

/** Creates the server, listens, and resolves once the port is bound. */
export async function listen(
  opts: ListenOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Listener> {
  let http: Server;
  let caPem: string | undefined;
  if (opts.insecureHttp) {
    http = createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
  } else {
    let tls = opts.tls;
    if (!tls) {
      // Loaded on first use: only a server that makes its own certificate needs the certificate code.
      const { generateServingCertificates } = await import('../pki/tls.js');
      const generated = await generateServingCertificates({ hosts: [opts.bindAddress], clock: opts.clock });
      tls = { certPem: generated.certPem, keyPem: generated.keyPem, caPem: generated.caCertPem };
    }
    caPem = tls.caPem;
    http = createHttpsServer(
      {
        cert: tls.certPem,
        key: tls.keyPem,
        maxHeaderSize: MAX_HEADER_BYTES,
        ...tlsClientAuthOptions(opts.clientCA),
      },
      handler,
    );
  }
  // Keep-alive watch connections must not hold up close().
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  http.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, opts.bindAddress, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const bind = opts.bindAddress;
  const host = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return { http, url: `${opts.insecureHttp ? 'http' : 'https'}://${hostPart}:${port}`, caPem };
}

/**
 * Stops `http` listening and resolves once it has closed: idle keep-alive connections close at
 * once, and every other one on the next turn, so no connection (a watch stream) holds it open.
 */
export function closeServer(http: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeIdleConnections();
    setImmediate(() => http.closeAllConnections());
  });
}
