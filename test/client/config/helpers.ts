/**
 * Fixtures for the credential-loading tests: temp dirs holding kubeconfigs,
 * executable plugin scripts, and the two references loading is checked
 * against: the real kubectl (`config view`) and @kubernetes/client-node.
 */

import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import type { ClusterConnection } from '../../../src/client/config/index.js';
import { generateServingCertificates } from '../../../src/server/pki/tls.js';
import { type TempDir as MadeDir, makeTempDir } from '../../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';

const execFileAsync = promisify(execFile);

/** A temp directory (the shared fixture's) with writers for kubeconfigs and scripts; the test removes it in afterEach. */
export class TempDir {
  readonly path: string;

  private constructor(private readonly dir: MadeDir) {
    this.path = dir.path;
  }

  static async create(): Promise<TempDir> {
    return new TempDir(await makeTempDir('watchmark-config-'));
  }

  /** Absolute path of `rel` inside the directory. */
  at(rel: string): string {
    return join(this.path, rel);
  }

  /** Writes `text` (creating parent dirs) and returns the absolute path. */
  async write(rel: string, text: string, mode = 0o600): Promise<string> {
    const path = this.at(rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { mode });
    await chmod(path, mode);
    return path;
  }

  /**
   * Writes a kubeconfig object as YAML 1.1, as Go's writers do, so strings
   * such as `yes` are quoted instead of being read back as booleans.
   */
  async kubeconfig(rel: string, config: object): Promise<string> {
    return this.write(rel, stringify({ apiVersion: 'v1', kind: 'Config', ...config }, { version: '1.1' }));
  }

  /** Writes an executable script. */
  async script(rel: string, text: string): Promise<string> {
    return this.write(rel, text, 0o755);
  }

  remove(): Promise<void> {
    return this.dir.remove();
  }
}

/** A recognizable fake PEM block; loading never parses PEM, so the body only has to be distinct. */
export function pem(label: string, body: string): string {
  return `-----BEGIN ${label}-----\n${Buffer.from(body).toString('base64')}\n-----END ${label}-----\n`;
}

/** Base64 of text, as kubeconfig `*-data` fields hold it. */
export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** The fields all three loaders agree to expose, for side-by-side comparison. */
export interface Comparable {
  server: string;
  caPem?: string;
  insecure: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
  token?: string;
  certPem?: string;
  keyPem?: string;
  namespace: string;
  context?: string;
}

/** Our connection reduced to {@link Comparable}. */
export async function ours(c: ClusterConnection): Promise<Comparable> {
  const auth = await c.credentials.authorization();
  return strip({
    server: c.server,
    caPem: c.caPem,
    insecure: c.insecureSkipTlsVerify,
    tlsServerName: c.tlsServerName,
    proxyUrl: c.proxyUrl,
    token: auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined,
    certPem: c.clientCertPem,
    keyPem: c.clientKeyPem,
    namespace: c.namespace,
    context: c.contextName,
  });
}

/** client-node's current context reduced to {@link Comparable} (file fields read, data fields decoded). */
export async function clientNodeView(kc: KubeConfig): Promise<Comparable> {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  const context = kc.getContextObject(kc.getCurrentContext());
  if (!cluster) throw new Error('client-node found no current cluster');
  const read = async (data?: string | null, file?: string | null) =>
    data ? Buffer.from(data, 'base64').toString('utf8') : file ? await readFile(file, 'utf8') : undefined;
  return strip({
    // client-node strips one trailing slash, as we strip all of them.
    server: cluster.server,
    caPem: await read(cluster.caData, cluster.caFile),
    insecure: cluster.skipTLSVerify,
    tlsServerName: cluster.tlsServerName,
    proxyUrl: cluster.proxyUrl,
    token: user?.token ?? undefined,
    certPem: await read(user?.certData, user?.certFile),
    keyPem: await read(user?.keyData, user?.keyFile),
    namespace: context?.namespace ?? 'default',
    context: kc.getCurrentContext(),
  });
}

/** `kubectl config view --minify --flatten -o json` output reduced to {@link Comparable}. */
export function kubectlView(config: KubectlConfigView): Comparable {
  const cluster = config.clusters[0]?.cluster ?? {};
  const user = config.users?.[0]?.user ?? {};
  const context = config.contexts[0]?.context ?? {};
  const decode = (v?: string) => (v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8'));
  return strip({
    // kubectl prints the server exactly as written; a trailing slash is meaningless to it.
    server: String(cluster.server).replace(/\/+$/, ''),
    caPem: decode(cluster['certificate-authority-data']),
    insecure: cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: cluster['tls-server-name'],
    proxyUrl: cluster['proxy-url'],
    token: user.token,
    certPem: decode(user['client-certificate-data']),
    keyPem: decode(user['client-key-data']),
    namespace: context.namespace ?? 'default',
    context: config['current-context'],
  });
}

/** The parts of `kubectl config view -o json` these tests read. */
export interface KubectlConfigView {
  'current-context': string;
  clusters: { name: string; cluster: Record<string, any> }[];
  users?: { name: string; user: Record<string, any> }[];
  contexts: { name: string; context: Record<string, any> }[];
}

function strip(c: Comparable): Comparable {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined && v !== null)) as Comparable;
}

const kubectls = await findKubectls();
/** The kubectl on PATH (undefined on a dev machine without it; CI fails instead via requireTool). */
export const kubectl = kubectls[0];
/** Whether kubectl tests run: false only off CI with kubectl missing (loud warning). */
export const haveKubectl = requireTool('kubectl', kubectl !== undefined);

/**
 * Runs `kubectl config view --minify --flatten -o json` with the given
 * KUBECONFIG (or --kubeconfig) and context; HOME points at `home` so the
 * developer's own ~/.kube/config never leaks in. Rejects on a kubectl error.
 */
export async function kubectlConfigView(opts: {
  kubeconfigEnv?: string;
  kubeconfigFlag?: string;
  context?: string;
  home: string;
  raw?: boolean;
}): Promise<KubectlConfigView> {
  if (!kubectl) throw new Error('kubectl not available');
  const args = ['config', 'view', '--minify', opts.raw ? '--raw' : '--flatten', '-o', 'json'];
  if (opts.context) args.push('--context', opts.context);
  if (opts.kubeconfigFlag) args.push('--kubeconfig', opts.kubeconfigFlag);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: opts.home };
  if (opts.kubeconfigEnv !== undefined) env.KUBECONFIG = opts.kubeconfigEnv;
  const { stdout } = await execFileAsync(kubectl.path, args, { env, timeout: 20_000 });
  return JSON.parse(stdout) as KubectlConfigView;
}

/**
 * Runs `fn` with process.env changed (client-node reads KUBECONFIG and
 * KUBERNETES_SERVICE_* from process.env only) and restores it afterwards.
 */
export async function withProcessEnv<T>(
  vars: Record<string, string | undefined>,
  fn: () => Promise<T> | T,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/** An environment with nothing that could select a kubeconfig or proxy by accident. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...extra };
}

/** A loopback HTTPS (or HTTP) server that answers /version and records each request's Authorization header. */
export interface RecordingServer {
  url: string;
  caPem?: string;
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts a {@link RecordingServer} on 127.0.0.1; `tls` false gives plain HTTP. */
export async function startRecordingServer(tls: boolean): Promise<RecordingServer> {
  const authorizations: (string | undefined)[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ major: '1', minor: '33', gitVersion: 'v1.33.0' }));
  };
  let server: HttpServer;
  let caPem: string | undefined;
  if (tls) {
    const certs = await generateServingCertificates({ hosts: [] });
    caPem = certs.caCertPem;
    server = createHttpsServer({ cert: certs.certPem, key: certs.keyPem }, handler);
  } else {
    server = createHttpServer(handler);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    caPem,
    authorizations,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Runs `kubectl get --raw /version` with `kubeconfig`; resolves with stdout or rejects with kubectl's error. */
export async function kubectlGetVersion(
  kubeconfig: string,
  home: string,
  args: string[] = [],
): Promise<string> {
  if (!kubectl) throw new Error('kubectl not available');
  const { stdout } = await execFileAsync(
    kubectl.path,
    ['get', '--raw', '/version', '--request-timeout=10s', ...args],
    {
      env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig },
      timeout: 20_000,
    },
  );
  return stdout;
}

/** The Authorization header client-node would send for its current user (token, basic or exec). */
export async function clientNodeAuthorization(kc: KubeConfig): Promise<string | undefined> {
  const opts: { headers?: Record<string, string>; auth?: string } = {};
  await kc.applyToHTTPSOptions(opts as never);
  if (opts.headers?.Authorization) return opts.headers.Authorization;
  return opts.auth ? `Basic ${b64(opts.auth)}` : undefined;
}
