/**
 * `loadConnection`: kubectl's decision of which cluster to talk to and as
 * whom. In order: the kubeconfig files (--kubeconfig, else KUBECONFIG, else
 * ~/.kube/config) merged and narrowed to one context (--context, else
 * current-context); when they name no context at all, the pod's service
 * account (client-go treats an empty kubeconfig as "try in-cluster"); else
 * a bare --server; else a ConfigError saying what to set.
 */

import { type Clock, systemClock } from '../../protocol/clock.js';
import { EMPTY_CLUSTER, execClusterInfo, normalizeServer, resolveCluster } from './cluster.js';
import { staticCredentials } from './credentials.js';
import { ConfigError } from './errors.js';
import { DEFAULT_IN_CLUSTER_ROOT, inClusterPossible, loadInCluster } from './in-cluster.js';
import { describeSources, kubeconfigPaths, loadKubeconfigs, type MergedKubeconfig } from './merge.js';
import { proxyFromEnvironment } from './proxy-env.js';
import type { ClusterConnection, LoadOptions } from './types.js';
import { resolveUser } from './user.js';

/** Exec plugins that have not answered after this long are killed. */
export const DEFAULT_EXEC_TIMEOUT_MS = 30_000;

/** Loads the connection kubectl would use for the same flags and environment. */
export async function loadConnection(opts: LoadOptions = {}): Promise<ClusterConnection> {
  const env = opts.env ?? process.env;
  const clock = opts.clock ?? systemClock;
  const root = opts.inClusterRoot ?? DEFAULT_IN_CLUSTER_ROOT;
  const search = kubeconfigPaths(opts.kubeconfig, env);
  const merged = await loadKubeconfigs(search);

  const contextName = opts.context || merged.currentContext;
  if (contextName !== undefined) return fromContext(merged, contextName, opts, env, clock);

  if (await inClusterPossible(env, root)) {
    const pod = await loadInCluster(env, root, clock);
    const server = opts.server ? normalizeServer(opts.server, '--server') : pod.server;
    return {
      ...pod,
      server,
      // The pod's token goes to https servers only, as for kubeconfig users.
      credentials: isHttps(server) ? pod.credentials : staticCredentials(),
      namespace: opts.namespace || pod.namespace,
      proxyUrl: proxyFromEnvironment(server, env),
    };
  }
  if (opts.server) {
    // kubectl --server with no kubeconfig: talk to that server anonymously.
    const server = normalizeServer(opts.server, '--server');
    return {
      server,
      insecureSkipTlsVerify: false,
      proxyUrl: proxyFromEnvironment(server, env),
      namespace: opts.namespace || 'default',
      credentials: staticCredentials(),
    };
  }
  if (merged.loaded.length > 0) {
    throw new ConfigError(
      `kubeconfig ${describeSources(merged)} has no current-context: pass --context or run kubectl config use-context`,
    );
  }
  const looked = search.paths.length > 0 ? ` (looked for ${search.paths.join(', ')})` : '';
  throw new ConfigError(`no kubeconfig found: set KUBECONFIG or --kubeconfig, or run in a cluster${looked}`);
}

async function fromContext(
  merged: MergedKubeconfig,
  contextName: string,
  opts: LoadOptions,
  env: NodeJS.ProcessEnv,
  clock: Clock,
): Promise<ClusterConnection> {
  const sources = describeSources(merged);
  const context = merged.contexts.get(contextName);
  if (context === undefined)
    throw new ConfigError(`context "${contextName}" not found in kubeconfig ${sources}`);

  // kubectl falls back to localhost:8080 for a dangling cluster name and to
  // anonymous for a dangling user name; both are nearly always typos, so they
  // are reported here instead.
  let cluster = context.cluster === undefined ? undefined : merged.clusters.get(context.cluster);
  if (cluster === undefined) {
    if (!opts.server) {
      throw new ConfigError(
        context.cluster === undefined
          ? `context "${contextName}" names no cluster in kubeconfig ${sources}`
          : `context "${contextName}" refers to cluster "${context.cluster}", which is not in kubeconfig ${sources}`,
      );
    }
    cluster = EMPTY_CLUSTER;
  }
  const user = context.user === undefined ? undefined : merged.users.get(context.user);
  if (context.user !== undefined && user === undefined) {
    throw new ConfigError(
      `context "${contextName}" refers to user "${context.user}", which is not in kubeconfig ${sources}`,
    );
  }

  const settings = await resolveCluster(cluster, context.cluster ?? '', opts.server, env);
  // client-go reads the user's credentials only for an https server
  // (IsConfigTransportTLS): kubectl sends no token, password or certificate,
  // and runs no exec plugin, for http://. Same here, so a kubeconfig pointed at
  // a plain-HTTP endpoint cannot leak its credentials in clear.
  const auth = isHttps(settings.server)
    ? await resolveUser(user, context.user ?? '', {
        env,
        clock,
        execTimeoutMs: opts.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
        cluster: execClusterInfo(cluster, settings),
      })
    : { credentials: staticCredentials() };
  return {
    ...settings,
    ...auth,
    namespace: opts.namespace || context.namespace || 'default',
    contextName,
  };
}

function isHttps(server: string): boolean {
  return new URL(server).protocol === 'https:';
}
