/**
 * Turning a kubeconfig cluster entry into connection settings: the server URL,
 * the CA bundle (data or file, never both, as kubectl insists), TLS knobs and
 * the proxy. Also the data-or-file rule shared with client certificates.
 */

import { readFile } from 'node:fs/promises';
import { ConfigError, unreadable } from './errors.js';
import type { ExecClusterInfo } from './exec.js';
import type { KubeconfigCluster } from './kubeconfig.js';
import { normalizeProxyUrl, proxyFromEnvironment } from './proxy-env.js';

/** The TLS and routing half of a ClusterConnection. */
export interface ClusterSettings {
  /** Normalized server URL. */
  server: string;
  /** PEM text of the CA bundle. */
  caPem?: string;
  /** insecure-skip-tls-verify. */
  insecureSkipTlsVerify: boolean;
  /** tls-server-name. */
  tlsServerName?: string;
  /** The effective proxy: proxy-url, else from the environment. */
  proxyUrl?: string;
  /** Further API servers of the cluster (`watchmark.io/servers`), normalized; absent with `--server`. */
  servers?: string[];
}

/** A cluster entry with nothing set, for a context whose cluster is supplied entirely by `--server`. */
export const EMPTY_CLUSTER: KubeconfigCluster = { insecureSkipTlsVerify: false, disableCompression: false };

/**
 * Settings for cluster `name`. `serverOverride` (`--server`) replaces the
 * entry's server; the proxy comes from the entry's proxy-url or else `env`.
 */
export async function resolveCluster(
  cluster: KubeconfigCluster,
  name: string,
  serverOverride: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<ClusterSettings> {
  const where = `cluster "${name}"`;
  const rawServer = serverOverride || cluster.server;
  if (rawServer === undefined) throw new ConfigError(`${where} has no server`);
  const server = normalizeServer(rawServer, serverOverride ? '--server' : `${where} server`);
  const caPem = await dataOrFile(cluster.certificateAuthorityData, cluster.certificateAuthority, {
    owner: where,
    dataKey: 'certificate-authority-data',
    fileKey: 'certificate-authority',
  });
  if (caPem !== undefined && cluster.insecureSkipTlsVerify) {
    // client-go's TLSConfigFor: "specifying a root certificates file with the insecure flag is not allowed".
    throw new ConfigError(
      `${where} sets both insecure-skip-tls-verify and a certificate authority; choose one`,
    );
  }
  const proxyUrl =
    cluster.proxyUrl !== undefined
      ? normalizeProxyUrl(cluster.proxyUrl, `${where} proxy-url`)
      : proxyFromEnvironment(server, env);
  // `--server` names one server: the cluster's list no longer applies.
  const servers = serverOverride
    ? []
    : (cluster.servers ?? [])
        .map((url, i) => normalizeServer(url, `${where} watchmark.io/servers[${i}]`))
        .filter((url) => url !== server);
  return {
    server,
    caPem,
    insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
    tlsServerName: cluster.tlsServerName,
    proxyUrl,
    ...(servers.length > 0 ? { servers } : {}),
  };
}

/** spec.cluster of KUBERNETES_EXEC_INFO for `cluster` as resolved into `settings` (empty fields left out, as Go's omitempty does). */
export function execClusterInfo(cluster: KubeconfigCluster, settings: ClusterSettings): ExecClusterInfo {
  const info: ExecClusterInfo = { server: settings.server };
  if (settings.tlsServerName !== undefined) info['tls-server-name'] = settings.tlsServerName;
  if (settings.insecureSkipTlsVerify) info['insecure-skip-tls-verify'] = true;
  if (settings.caPem !== undefined) {
    info['certificate-authority-data'] = Buffer.from(settings.caPem, 'utf8').toString('base64');
  }
  if (cluster.proxyUrl !== undefined) info['proxy-url'] = cluster.proxyUrl;
  if (cluster.disableCompression) info['disable-compression'] = true;
  if (cluster.execExtension !== undefined) info.config = cluster.execExtension;
  return info;
}

/**
 * Checks a server URL and drops trailing slashes (a path prefix, as behind
 * Rancher, is kept). A URL without a scheme is refused: client-go guesses
 * http or https for it, and guessing http would send credentials in clear.
 */
export function normalizeServer(server: string, source: string): string {
  const trimmed = server.trim();
  if (!/^https?:\/\//i.test(trimmed)) {
    throw new ConfigError(`${source} "${trimmed}" must start with https:// (or http://)`);
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ConfigError(`${source} "${trimmed}" is not a valid URL`);
  }
  if (url.hostname === '') throw new ConfigError(`${source} "${trimmed}" has no host`);
  return trimmed.replace(/\/+$/, '');
}

/** Names of the two fields that can carry one PEM value, for messages. */
export interface DataOrFileFields {
  /** `cluster "x"` or `user "y"`. */
  owner: string;
  /** e.g. `client-key-data`. */
  dataKey: string;
  /** e.g. `client-key`. */
  fileKey: string;
}

/**
 * The PEM text of a `*-data` (base64) or file field. Both set is an error,
 * as kubectl reports it ("... will override" is part of a refusal, not a
 * warning). Messages name the file, never its contents.
 */
export async function dataOrFile(
  data: string | undefined,
  file: string | undefined,
  fields: DataOrFileFields,
): Promise<string | undefined> {
  if (data !== undefined && file !== undefined) {
    throw new ConfigError(`${fields.owner} sets both ${fields.dataKey} and ${fields.fileKey}; keep one`);
  }
  if (data !== undefined) {
    // client-go treats empty data as unset.
    if (data === '') return undefined;
    return withPemBlock(Buffer.from(data, 'base64').toString('utf8'), `${fields.dataKey} of ${fields.owner}`);
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw unreadable(`${fields.fileKey} of ${fields.owner}`, file, err);
  }
  return withPemBlock(text, `${fields.fileKey} ${file} of ${fields.owner}`);
}

/** One whole PEM block: a BEGIN line, anything, the END line. */
const PEM_BLOCK = /-----BEGIN [^\r\n-][^\r\n]*-----[\s\S]*?-----END [^\r\n-][^\r\n]*-----/;

/**
 * `text`, if it holds at least one PEM block. Nothing more is parsed here
 * (the TLS layer does that at the first connection), but text with no block
 * at all, say base64 of the wrong thing, is refused now, as kubectl refuses
 * it before any request ("unable to parse bytes as PEM block"): found at the
 * first request instead, a watch would retry it forever.
 */
function withPemBlock(text: string, what: string): string {
  if (!PEM_BLOCK.test(text)) {
    throw new ConfigError(`${what} holds no PEM block (-----BEGIN ...----- to -----END ...-----)`);
  }
  return text;
}
