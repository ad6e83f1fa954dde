/**
 * Turning a kubeconfig user entry into credentials, with kubectl's
 * precedence: a static token (or tokenFile) or basic auth supplies the
 * Authorization header and an exec plugin is asked only when neither does;
 * a static client certificate wins over the plugin's (client-go: "static
 * key/cert data always take precedence over cert callback").
 */

import type { Clock } from '../../protocol/clock.js';
import { dataOrFile } from './cluster.js';
import {
  basicAuthorization,
  type CredentialParts,
  combineCredentials,
  staticCredentials,
  TokenFileCredentials,
} from './credentials.js';
import { ConfigError } from './errors.js';
import { type ExecClusterInfo, ExecCredentials } from './exec.js';
import type { KubeconfigUser } from './kubeconfig.js';
import type { CredentialSource } from './types.js';

/** The authentication half of a ClusterConnection. */
export interface UserSettings {
  /** Static client certificate PEM. */
  clientCertPem?: string;
  /** Static client key PEM. */
  clientKeyPem?: string;
  /** Header and exec-certificate source. */
  credentials: CredentialSource;
}

/** What building an exec plugin's credential source needs besides the user entry. */
export interface UserContext {
  /** Base environment of exec plugins. */
  env: NodeJS.ProcessEnv;
  /** Clock for token-file re-reads and exec expiry. */
  clock: Clock;
  /** Exec plugin timeout. */
  execTimeoutMs: number;
  /** spec.cluster for plugins with provideClusterInfo. */
  cluster: ExecClusterInfo;
}

/** Credentials of user `name`; `user` undefined means a context with no user: anonymous. */
export async function resolveUser(
  user: KubeconfigUser | undefined,
  name: string,
  context: UserContext,
): Promise<UserSettings> {
  if (user === undefined) return { credentials: staticCredentials() };
  const where = `user "${name}"`;
  if (user.authProvider !== undefined) {
    throw new ConfigError(
      `${where} uses auth-provider "${user.authProvider}", which watchmark does not support; ` +
        'use an exec plugin instead (kubelogin for oidc, gke-gcloud-auth-plugin for gcp)',
    );
  }
  const bearer = user.token !== undefined || user.tokenFile !== undefined;
  const basic = user.username !== undefined || user.password !== undefined;
  if (bearer && basic) {
    // kubectl: "username/password or bearer token may be set, but not both".
    throw new ConfigError(`${where} sets both a bearer token and username/password; keep one`);
  }

  const { clientCertPem, clientKeyPem } = await staticCertificate(user, where);
  const parts: CredentialParts = {};
  if (user.tokenFile !== undefined) {
    const source = new TokenFileCredentials(user.tokenFile, context.clock, user.token);
    // client-go reads the file while building the config: a missing file fails now, not on the first request.
    await source.prime();
    parts.authorization = source;
  } else if (user.token !== undefined) {
    parts.authorization = staticCredentials(`Bearer ${user.token}`);
  } else if (user.username !== undefined) {
    // Go's HasBasicAuth looks at the username only; a lone password sends nothing.
    parts.authorization = staticCredentials(basicAuthorization(user.username, user.password ?? ''));
  }
  if (user.exec !== undefined) {
    const exec = new ExecCredentials(user.exec, name, {
      env: context.env,
      clock: context.clock,
      timeoutMs: context.execTimeoutMs,
      cluster: context.cluster,
    });
    parts.authorization ??= exec;
    if (clientCertPem === undefined) parts.certificates = exec;
  }
  return { clientCertPem, clientKeyPem, credentials: combineCredentials(parts) };
}

async function staticCertificate(
  user: KubeconfigUser,
  where: string,
): Promise<{ clientCertPem?: string; clientKeyPem?: string }> {
  const clientCertPem = await dataOrFile(user.clientCertificateData, user.clientCertificate, {
    owner: where,
    dataKey: 'client-certificate-data',
    fileKey: 'client-certificate',
  });
  const clientKeyPem = await dataOrFile(user.clientKeyData, user.clientKey, {
    owner: where,
    dataKey: 'client-key-data',
    fileKey: 'client-key',
  });
  if ((clientCertPem === undefined) !== (clientKeyPem === undefined)) {
    const missing = clientCertPem === undefined ? 'client-certificate(-data)' : 'client-key(-data)';
    throw new ConfigError(
      `${where} has a client ${clientCertPem === undefined ? 'key' : 'certificate'} but no ${missing}`,
    );
  }
  return { clientCertPem, clientKeyPem };
}
