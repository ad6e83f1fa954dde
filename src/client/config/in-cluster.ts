/**
 * In-cluster configuration, as client-go's InClusterConfig builds it for a
 * pod: the API server from KUBERNETES_SERVICE_HOST/PORT (always https), the
 * service account's CA and token from the mounted secret, and the namespace
 * from POD_NAMESPACE (downward API) or the mounted `namespace` file. The token
 * is a bound, rotating token: it is re-read rather than read once.
 */

import { readFile, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Clock } from '../../protocol/clock.js';
import { TokenFileCredentials } from './credentials.js';
import { errnoCode, unreadable } from './errors.js';
import type { ClusterConnection } from './types.js';

/** Where the kubelet mounts the service account secret. */
export const DEFAULT_IN_CLUSTER_ROOT = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * True when this process looks like it runs in a pod: both service env vars
 * set and a token file present (client-go's `Possible()`).
 */
export async function inClusterPossible(env: NodeJS.ProcessEnv, root: string): Promise<boolean> {
  if (!env.KUBERNETES_SERVICE_HOST || !env.KUBERNETES_SERVICE_PORT) return false;
  try {
    return !(await stat(join(root, 'token'))).isDirectory();
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw unreadable('service account token', join(root, 'token'), err);
  }
}

/** Builds the in-cluster connection; call only when {@link inClusterPossible} said yes. */
export async function loadInCluster(
  env: NodeJS.ProcessEnv,
  root: string,
  clock: Clock,
): Promise<Omit<ClusterConnection, 'proxyUrl'>> {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const hostPart = isIP(host) === 6 ? `[${host}]` : host;
  const credentials = new TokenFileCredentials(join(root, 'token'), clock);
  // client-go fails InClusterConfig when the token cannot be read; so does this.
  await credentials.prime();
  return {
    server: `https://${hostPart}:${env.KUBERNETES_SERVICE_PORT}`,
    caPem: await readOptional(join(root, 'ca.crt'), 'service account CA'),
    insecureSkipTlsVerify: false,
    namespace:
      env.POD_NAMESPACE ||
      (await readOptional(join(root, 'namespace'), 'namespace file'))?.trim() ||
      'default',
    credentials,
  };
}

/**
 * Contents of a file that may legitimately be absent (client-go carries on
 * without ca.crt, using the system roots, and without `namespace`).
 */
async function readOptional(path: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw unreadable(what, path, err);
  }
}
