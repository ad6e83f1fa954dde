/**
 * Loading cluster credentials the way kubectl does: kubeconfig files (with
 * KUBECONFIG merging), in-cluster service accounts, token files and exec
 * plugins. The YAML parser is loaded only when a kubeconfig is read.
 */

export { basicAuthorization, TOKEN_FILE_REREAD_MS, TokenFileCredentials } from './credentials.js';
export { ConfigError } from './errors.js';
export { EXEC_API_VERSIONS, ExecCredentials } from './exec.js';
export { DEFAULT_IN_CLUSTER_ROOT } from './in-cluster.js';
export { DEFAULT_EXEC_TIMEOUT_MS, loadConnection } from './load.js';
export { proxyFromEnvironment, useProxy } from './proxy-env.js';
export type { ClusterConnection, CredentialSource, LoadOptions } from './types.js';
