/**
 * client-node's `KubeConfig`, read only through its public methods, as a
 * watchmark {@link ClusterConnection}. Nothing here imports
 * `@kubernetes/client-node`: {@link KubeConfigLike} is the structural shape
 * of the two methods used, so the package works without it installed and
 * with any version whose KubeConfig has them (1.x and 2.x do).
 *
 * Every credential client-node supports (tokens, token files, client
 * certificates, basic auth, exec plugins, auth providers) reaches us through
 * `applyToHTTPSOptions`, the method client-node itself calls before each
 * request: it fills `headers.Authorization`, `auth`, `ca`, `cert` and `key`.
 */
import type { ClusterConnection, CredentialSource } from '../client/config/index.js';

/** The cluster entry client-node's `getCurrentCluster()` returns (the fields read). */
export interface ClusterLike {
  readonly server: string;
  readonly skipTLSVerify?: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
}

/** What `applyToHTTPSOptions` fills in (client-node writes https.RequestOptions fields). */
export interface HttpsOptionsLike {
  headers?: Record<string, unknown>;
  auth?: string;
  ca?: unknown;
  cert?: unknown;
  key?: unknown;
  [field: string]: unknown;
}

/** The part of client-node's `KubeConfig` watchmark/client-node uses. */
export interface KubeConfigLike {
  getCurrentCluster(): ClusterLike | null;
  applyToHTTPSOptions(opts: HttpsOptionsLike): Promise<void>;
}

/**
 * How long one reading of the credentials is reused. The transport asks for
 * the Authorization header and the client certificate of each request
 * separately; one `applyToHTTPSOptions` serves both. client-node's own
 * authenticators cache tokens until they expire, so this only saves work.
 */
const REUSE_MS = 1_000;

/** The answer of one `applyToHTTPSOptions` call, as the transport needs it. */
interface Reading {
  authorization: string | undefined;
  certificate: { certPem: string; keyPem: string } | undefined;
  caPem: string | undefined;
}

function pemText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(pemText).join('\n');
  return String(value);
}

async function readCredentials(kc: KubeConfigLike): Promise<Reading> {
  const opts: HttpsOptionsLike = {};
  await kc.applyToHTTPSOptions(opts);
  const headers = opts.headers ?? {};
  // Impersonation is a header the watchmark transport cannot send: refuse rather than act as another user.
  const impersonating = Object.keys(headers).find((h) => h.toLowerCase().startsWith('impersonate-'));
  if (impersonating) {
    throw new Error(
      `watchmark/client-node: the kubeconfig asks for ${impersonating}, which is not supported`,
    );
  }
  const header = Object.entries(headers).find(([h]) => h.toLowerCase() === 'authorization')?.[1];
  let authorization = typeof header === 'string' ? header : undefined;
  // client-node turns a username/password user into `auth`, which node sends as Basic.
  if (!authorization && opts.auth) authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  const certPem = pemText(opts.cert);
  const keyPem = pemText(opts.key);
  return {
    authorization,
    certificate: certPem && keyPem ? { certPem, keyPem } : undefined,
    caPem: pemText(opts.ca),
  };
}

/** Credentials read through client-node's KubeConfig on each request (see {@link REUSE_MS}). */
class KubeConfigCredentials implements CredentialSource {
  private last: { at: number; reading: Promise<Reading> } | undefined;

  constructor(
    private readonly kc: KubeConfigLike,
    first: Reading,
  ) {
    this.last = { at: Date.now(), reading: Promise.resolve(first) };
  }

  private read(): Promise<Reading> {
    const now = Date.now();
    if (this.last && now - this.last.at < REUSE_MS) return this.last.reading;
    const reading = readCredentials(this.kc);
    this.last = { at: now, reading };
    // A failed reading is not reused: the next request asks again.
    reading.catch(() => {
      if (this.last?.reading === reading) this.last = undefined;
    });
    return reading;
  }

  async authorization(): Promise<string | undefined> {
    return (await this.read()).authorization;
  }

  async clientCertificate(): Promise<{ certPem: string; keyPem: string } | undefined> {
    return (await this.read()).certificate;
  }

  invalidate(): void {
    // After a 401 the next request reads again; client-node's authenticators decide whether to refresh.
    this.last = undefined;
  }
}

/**
 * The connection client-node's KubeConfig describes: its current cluster's
 * server, CA, TLS settings and proxy, and its current user's credentials,
 * read again for every request. Throws as client-node's `Watch` does when
 * there is no current cluster.
 */
export async function connectionFromKubeConfig(kc: KubeConfigLike): Promise<ClusterConnection> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('No currently active cluster');
  const first = await readCredentials(kc);
  if (cluster.proxyUrl && !/^https?:/.test(cluster.proxyUrl)) {
    throw new Error(
      `watchmark/client-node: proxy-url ${cluster.proxyUrl}: only http(s) proxies are supported`,
    );
  }
  return {
    server: cluster.server.replace(/\/$/, ''),
    caPem: first.caPem,
    insecureSkipTlsVerify: cluster.skipTLSVerify === true,
    tlsServerName: cluster.tlsServerName,
    proxyUrl: cluster.proxyUrl,
    // Paths given to the drop-in carry their namespace; this is only a default nobody reads.
    namespace: 'default',
    credentials: new KubeConfigCredentials(kc, first),
  };
}
