/**
 * The shapes loading produces and takes. Kept apart from the loader so that
 * the transport can import them without pulling in the loader's code.
 */

import type { Clock } from '../../protocol/clock.js';

/** Everything needed to reach and authenticate to one API server. */
export interface ClusterConnection {
  /** Base URL of the API server, no trailing slash (a path prefix is kept). */
  server: string;
  /**
   * Further API servers of the same cluster (several servers over one etcd),
   * sharing the CA and credentials: the transport moves to the next one when
   * its server goes away. From the kubeconfig cluster extension `watchmark.io/servers`.
   */
  servers?: string[];
  /** PEM text of the CA bundle that signs the serving certificate (certificate-authority(-data)). */
  caPem?: string;
  /** Skip verification of the serving certificate (insecure-skip-tls-verify). */
  insecureSkipTlsVerify: boolean;
  /** Name to verify the serving certificate against instead of the URL host (tls-server-name). */
  tlsServerName?: string;
  /** Proxy to tunnel through: the cluster's proxy-url, else HTTPS_PROXY/HTTP_PROXY unless NO_PROXY matches. */
  proxyUrl?: string;
  /** PEM client certificate from the kubeconfig (client-certificate(-data)); wins over an exec plugin's. */
  clientCertPem?: string;
  /** PEM private key of {@link ClusterConnection.clientCertPem} (client-key(-data)). */
  clientKeyPem?: string;
  /** The namespace to work in: the override, else the context's, else `default`. */
  namespace: string;
  /** The kubeconfig context this came from; undefined in-cluster or with only a server override. */
  contextName?: string;
  /**
   * Bearer/basic credentials and exec-plugin certificates, possibly refreshing.
   * Empty for an http:// server: like kubectl, credentials only travel over TLS.
   */
  credentials: CredentialSource;
}

/** Credentials that may change over time (rotated token files, exec plugins). */
export interface CredentialSource {
  /** Current Authorization header value (e.g. `Bearer xyz`) or undefined. Re-reads token files / re-runs exec plugins when expired. */
  authorization(): Promise<string | undefined>;
  /** Client cert/key supplied by an exec plugin (status.clientCertificateData/clientKeyData), if any. */
  clientCertificate(): Promise<{ certPem: string; keyPem: string } | undefined>;
  /** Called after a 401: drop cached credentials so the next call refreshes (exec plugins, token files). */
  invalidate(): void;
}

/** Inputs of `loadConnection`, mirroring kubectl's flags and environment. */
export interface LoadOptions {
  /** `--kubeconfig`: one explicit file, which must exist (overrides KUBECONFIG). */
  kubeconfig?: string;
  /** `--context`: the context to use instead of current-context. */
  context?: string;
  /** `--server`: replaces the cluster's server URL. */
  server?: string;
  /** `-n`: replaces the context's namespace. */
  namespace?: string;
  /** Environment to read (KUBECONFIG, HOME, *_PROXY, KUBERNETES_SERVICE_*, POD_NAMESPACE); also the base environment of exec plugins. Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Directory of the mounted service account; defaults to /var/run/secrets/kubernetes.io/serviceaccount. */
  inClusterRoot?: string;
  /** Time source for token-file re-reads and exec credential expiry; defaults to the system clock. */
  clock?: Clock;
  /** Longest an exec plugin may run before it is killed; defaults to 30 s. */
  execTimeoutMs?: number;
}
