/**
 * Exec credential plugins (client.authentication.k8s.io v1 and v1beta1), as
 * client-go runs them: the plugin gets the caller's environment plus the
 * kubeconfig's `env` and KUBERNETES_EXEC_INFO, prints an ExecCredential, and
 * its credential is cached until `status.expirationTimestamp` (forever when
 * absent) or until a 401 invalidates it. Concurrent callers share one run.
 */

import type { Clock } from '../../protocol/clock.js';
import { ConfigError } from './errors.js';
import { runPlugin } from './exec-process.js';
import type { ExecConfig } from './kubeconfig.js';
import type { CredentialSource } from './types.js';

/** The ExecCredential versions this loader speaks (v1alpha1 was removed in Kubernetes 1.24). */
export const EXEC_API_VERSIONS: readonly string[] = [
  'client.authentication.k8s.io/v1',
  'client.authentication.k8s.io/v1beta1',
];

/**
 * Refresh this long before expiry, so a token is not sent in its last
 * seconds and rejected in flight; capped at half the credential's lifetime so
 * short-lived credentials are still reused.
 */
const EARLY_REFRESH_MS = 10_000;

/** `spec.cluster` of KUBERNETES_EXEC_INFO, for plugins with provideClusterInfo (field names as on the wire). */
export interface ExecClusterInfo {
  /** The server URL. */
  server: string;
  /** tls-server-name. */
  'tls-server-name'?: string;
  /** insecure-skip-tls-verify. */
  'insecure-skip-tls-verify'?: boolean;
  /** The CA bundle, base64. */
  'certificate-authority-data'?: string;
  /** The cluster's proxy-url. */
  'proxy-url'?: string;
  /** disable-compression. */
  'disable-compression'?: boolean;
  /** The cluster's `client.authentication.k8s.io/exec` extension. */
  config?: unknown;
}

/** Settings of an {@link ExecCredentials} beyond the kubeconfig's exec block. */
export interface ExecOptions {
  /** Base environment of the plugin. */
  env: NodeJS.ProcessEnv;
  /** Decides when the credential has expired. */
  clock: Clock;
  /** Kill the plugin after this long. */
  timeoutMs: number;
  /** Passed as spec.cluster when the kubeconfig sets provideClusterInfo. */
  cluster?: ExecClusterInfo;
}

/** A credential obtained from one plugin run. */
interface ExecResult {
  token?: string;
  certificate?: { certPem: string; keyPem: string };
  /** Clock time from which the plugin must run again; undefined = no expiry. */
  refreshAt?: number;
}

/**
 * Refuses exec blocks kubectl refuses: unknown apiVersion, v1 without
 * interactiveMode, an unknown mode. `Always` is refused too: this library
 * never gives a plugin a terminal, which is what `Always` demands. Returns
 * the validated apiVersion.
 */
export function validateExecConfig(exec: ExecConfig, userName: string): string {
  const where = `user "${userName}": exec plugin "${exec.command}"`;
  if (exec.apiVersion === undefined || !EXEC_API_VERSIONS.includes(exec.apiVersion)) {
    throw new ConfigError(
      `${where} has apiVersion ${JSON.stringify(exec.apiVersion ?? '')}; supported: ${EXEC_API_VERSIONS.join(', ')}`,
    );
  }
  // client-go defaults the mode to IfAvailable for v1beta1 only; v1 must say.
  const mode = exec.interactiveMode ?? (exec.apiVersion.endsWith('/v1beta1') ? 'IfAvailable' : undefined);
  if (mode === undefined) {
    throw new ConfigError(`${where}: interactiveMode must be specified for ${exec.apiVersion}`);
  }
  if (mode === 'Always') {
    throw new ConfigError(
      `${where} has interactiveMode Always, but watchmark runs plugins without a terminal`,
    );
  }
  if (mode !== 'Never' && mode !== 'IfAvailable') {
    throw new ConfigError(`${where} has unknown interactiveMode ${JSON.stringify(mode)}`);
  }
  return exec.apiVersion;
}

/** Credentials from an exec plugin, cached until expiry or {@link ExecCredentials.invalidate}. */
export class ExecCredentials implements CredentialSource {
  private cached: ExecResult | undefined;
  private running: Promise<ExecResult> | undefined;
  private readonly apiVersion: string;
  private started = 0;

  /** Validates `exec` (see {@link validateExecConfig}); the plugin first runs on the first call. */
  constructor(
    private readonly exec: ExecConfig,
    userName: string,
    private readonly options: ExecOptions,
  ) {
    this.apiVersion = validateExecConfig(exec, userName);
  }

  /** `Bearer <status.token>`, or undefined when the plugin supplies only a certificate. */
  async authorization(): Promise<string | undefined> {
    const { token } = await this.current();
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  /** The plugin's client certificate and key, if it supplies them. */
  async clientCertificate(): Promise<{ certPem: string; keyPem: string } | undefined> {
    return (await this.current()).certificate;
  }

  /** How many times the plugin has been started (for metrics). */
  get runs(): number {
    return this.started;
  }

  /** Drops the cached credential; the next call runs the plugin again. */
  invalidate(): void {
    this.cached = undefined;
  }

  private current(): Promise<ExecResult> {
    const cached = this.cached;
    if (
      cached !== undefined &&
      (cached.refreshAt === undefined || this.options.clock.now() < cached.refreshAt)
    ) {
      return Promise.resolve(cached);
    }
    if (this.running === undefined) {
      this.running = this.refresh().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  private async refresh(): Promise<ExecResult> {
    const startedAt = this.options.clock.now();
    this.started++;
    const stdout = await runPlugin({
      command: this.exec.command,
      args: this.exec.args,
      env: this.pluginEnv(),
      timeoutMs: this.options.timeoutMs,
      clock: this.options.clock,
      installHint: this.exec.installHint,
    });
    const result = parseExecCredential(
      stdout,
      `exec plugin "${this.exec.command}"`,
      this.apiVersion,
      startedAt,
    );
    this.cached = result;
    return result;
  }

  private pluginEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...this.options.env };
    for (const { name, value } of this.exec.env) env[name] = value;
    const spec: Record<string, unknown> = { interactive: false };
    if (this.exec.provideClusterInfo && this.options.cluster !== undefined)
      spec.cluster = this.options.cluster;
    env.KUBERNETES_EXEC_INFO = JSON.stringify({ kind: 'ExecCredential', apiVersion: this.apiVersion, spec });
    return env;
  }
}

/**
 * Reads the plugin's ExecCredential. Messages name what is wrong but never
 * quote stdout: it holds the token.
 */
function parseExecCredential(
  stdout: string,
  label: string,
  apiVersion: string,
  startedAt: number,
): ExecResult {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw new ConfigError(`${label} did not print an ExecCredential as JSON on stdout`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new ConfigError(`${label} did not print an ExecCredential as JSON on stdout`);
  }
  const { apiVersion: gotVersion, kind, status } = doc as Record<string, unknown>;
  if (gotVersion !== apiVersion) {
    throw new ConfigError(
      `${label} returned apiVersion ${describe(gotVersion)}, but the kubeconfig asks for ${apiVersion}`,
    );
  }
  if (kind !== 'ExecCredential')
    throw new ConfigError(`${label} returned kind ${describe(kind)}, not ExecCredential`);
  if (typeof status !== 'object' || status === null) throw new ConfigError(`${label} returned no status`);
  const s = status as Record<string, unknown>;
  const token = optionalString(s.token, label, 'status.token');
  const certPem = optionalString(s.clientCertificateData, label, 'status.clientCertificateData');
  const keyPem = optionalString(s.clientKeyData, label, 'status.clientKeyData');
  if ((certPem === undefined) !== (keyPem === undefined)) {
    throw new ConfigError(`${label} returned only one of clientCertificateData and clientKeyData`);
  }
  if (token === undefined && certPem === undefined) {
    throw new ConfigError(`${label} returned neither a token nor a client certificate and key`);
  }
  const result: ExecResult = { token };
  if (certPem !== undefined && keyPem !== undefined) result.certificate = { certPem, keyPem };
  const expiry = optionalString(s.expirationTimestamp, label, 'status.expirationTimestamp');
  if (expiry !== undefined) {
    const expiresAt = Date.parse(expiry);
    if (Number.isNaN(expiresAt))
      throw new ConfigError(`${label} returned an unparsable status.expirationTimestamp`);
    const lifetime = Math.max(0, expiresAt - startedAt);
    result.refreshAt = expiresAt - Math.min(EARLY_REFRESH_MS, lifetime / 2);
  }
  return result;
}

function optionalString(value: unknown, label: string, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(`${label} returned a ${field} that is not a string`);
  return value;
}

/** A short, safe rendering of a plugin-supplied identifier (apiVersion, kind) for a message. */
function describe(value: unknown): string {
  if (typeof value === 'string' && /^[\w./-]{1,100}$/.test(value)) return JSON.stringify(value);
  return value === undefined ? 'none' : 'an unexpected value';
}
