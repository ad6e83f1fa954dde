import { request as httpRequest } from 'node:http';
import { type AgentOptions, Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';

/**
 * An https Agent that reaches servers through an HTTP(S) proxy with CONNECT,
 * as kubectl does with `proxy-url` or `HTTPS_PROXY`. The TLS session to the
 * API server runs inside the tunnel, so the proxy never sees the traffic.
 */
export function connectThroughProxy(
  proxyUrl: string,
  tls: ConnectionOptions,
  agentOptions: AgentOptions,
): HttpsAgent {
  const proxy = new URL(proxyUrl);
  const agent = new HttpsAgent({ ...agentOptions, ...tls });
  const auth = proxy.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
    : undefined;
  // createConnection is called per socket; it may hand back the socket asynchronously.
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: ConnectionOptions & { host: string; port: number },
    callback: (err: Error | null, socket?: Duplex) => void,
  ) => {
    const target = `${options.host}:${options.port}`;
    const headers: Record<string, string> = { host: target };
    if (auth) headers['proxy-authorization'] = auth;
    const connectReq = httpRequest({
      host: proxy.hostname,
      port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: target,
      headers,
    });
    connectReq.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        callback(new Error(`proxy ${proxy.host} refused CONNECT ${target}: HTTP ${res.statusCode}`));
        return;
      }
      const secure = tlsConnect({
        ...tls,
        socket,
        servername: tls.servername ?? options.servername ?? options.host,
      });
      secure.once('secureConnect', () => callback(null, secure));
      secure.once('error', (err) => callback(err));
    });
    connectReq.once('error', (err) => callback(new Error(`proxy ${proxy.host}: ${err.message}`)));
    connectReq.end();
    return undefined;
  };
  return agent;
}
