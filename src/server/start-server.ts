import { ApiServer } from './api-server.js';
import type { ServerOptions } from './options.js';
import type { RunningServer } from './running-server.js';
import type { Store } from './stores/types.js';

/**
 * Starts a Kubernetes-compatible API server in this process: the same server
 * `watchmark serve` runs. Stop it with `close()`; a new one may then be
 * started over the same `store`, as kube-apiserver restarts over etcd.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  checkOptions(options);
  const ownStore = await openEtcdStore(options);
  let server: ApiServer;
  try {
    server = new ApiServer(options, ownStore);
  } catch (err) {
    await ownStore?.close();
    throw err;
  }
  try {
    await server.start();
  } catch (err) {
    // Nothing may outlive a failed start: the etcd client, a listening socket.
    await server.close();
    throw err;
  }
  return server;
}

/** Throws for options that cannot go together. */
function checkOptions(opts: ServerOptions): void {
  if (opts.startFrom && (opts.store || opts.etcd)) {
    throw new Error('startFrom starts a memory store of its own: it cannot be combined with store or etcd');
  }
  if (opts.insecureHttp && !opts.insecureNoAuth) {
    throw new Error(
      '--insecure-http requires --insecure-no-auth: kubectl never sends credentials over plain HTTP',
    );
  }
}

/**
 * The etcd store of `--etcd-servers`, loaded only when asked for: the etcd
 * client (gRPC and its protocol definitions) takes most of a second to load.
 */
async function openEtcdStore(options: ServerOptions): Promise<Store | undefined> {
  if (!options.etcd || options.store) return undefined;
  const { EtcdStore } = await import('./stores/etcd.js');
  return new EtcdStore({ log: options.log, ...options.etcd });
}
