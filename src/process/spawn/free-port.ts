/**
 * A free loopback port for a child that binds it itself (etcd, an API
 * server): the port is bound and released here, and the child binds it a
 * moment later. Another process may take it in between; the etcd launcher
 * tells that apart (`PortTakenError`) and its callers pick new ports.
 */
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (bound and released; etcd binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
