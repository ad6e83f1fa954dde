/**
 * `watchmark serve`'s flags read into what the server, the controllers and
 * the simulation take: files read, lists parsed and checked, and every
 * mistake one line naming its flag (a {@link CliError}).
 */
import { readFile } from 'node:fs/promises';
import { ControllerListError, type ControllerName, parseControllerList } from '../controllers/index.js';
import { disabledAdmissionPlugins, type ServerOptions } from '../server/index.js';
import { ImageRegistry, parseImagesFile } from '../sim/index.js';
import { CliError } from './errors.js';

/** The flags of `watchmark serve`, as commander hands them over. */
export interface ServeFlags {
  bindAddress: string;
  port: number;
  kubeconfigOut?: string;
  tlsCert?: string;
  tlsKey?: string;
  tokenFile?: string;
  clientCaFile?: string;
  insecureNoAuth?: boolean;
  insecureHttp?: boolean;
  bookmarkInterval?: number;
  bookmarkLead?: number;
  historyWindow?: number;
  compactionInterval?: number;
  minRequestTimeout?: number;
  bookmarks: boolean;
  watchList: boolean;
  systemNamespaces: boolean;
  simulate?: boolean;
  ui: boolean;
  nodes?: number;
  simImages?: string;
  simCheckpointDir?: string;
  etcdServers?: string;
  etcdPrefix?: string;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
  controllers: string;
  disableAdmissionPlugins?: string;
  crds?: string[];
  objects?: string[];
}

/**
 * `--controllers`: the list as kube-controller-manager's flag reads it. The
 * default is `namespace`, serve's behaviour before the flag existed (the
 * namespace controller runs inside the server; no garbage collector).
 */
export function controllerList(text: string): ControllerName[] {
  try {
    return parseControllerList(text);
  } catch (err) {
    if (err instanceof ControllerListError) throw new CliError(`--controllers: ${err.message}`);
    throw err;
  }
}

async function readFlagFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(`${flag} ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

/** `--disable-admission-plugins`: a comma-separated list, checked as kube-apiserver checks it. */
function admissionPluginList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  try {
    disabledAdmissionPlugins(names);
  } catch (err) {
    throw new CliError(`--${(err as Error).message}`);
  }
  return names;
}

/** The etcd store options of `--etcd-*` flags; undefined without `--etcd-servers` (memory store). */
async function etcdOptions(flags: ServeFlags): Promise<ServerOptions['etcd']> {
  const etcdOnlyFlag = flags.etcdCafile ?? flags.etcdCertfile ?? flags.etcdKeyfile ?? flags.etcdPrefix;
  if (!flags.etcdServers) {
    if (etcdOnlyFlag !== undefined) throw new CliError('--etcd-prefix and --etcd-*file need --etcd-servers');
    return undefined;
  }
  const endpoints = flags.etcdServers
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const url of endpoints) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) {
      throw new CliError(`--etcd-servers: ${JSON.stringify(url)} is not an http(s)://host:port URL`);
    }
  }
  if ((flags.etcdCertfile === undefined) !== (flags.etcdKeyfile === undefined)) {
    throw new CliError('--etcd-certfile and --etcd-keyfile go together');
  }
  const https = endpoints.some((u) => u.startsWith('https:'));
  if (https && !endpoints.every((u) => u.startsWith('https:'))) {
    throw new CliError('--etcd-servers: use https for every member or for none');
  }
  if (!https && (flags.etcdCafile || flags.etcdCertfile)) {
    throw new CliError('--etcd-cafile/--etcd-certfile need https:// etcd servers');
  }
  if (https && !flags.etcdCafile) throw new CliError('https etcd servers need --etcd-cafile');
  return {
    endpoints,
    prefix: flags.etcdPrefix,
    tls: https
      ? {
          caPem: await readFlagFile('--etcd-cafile', flags.etcdCafile!),
          certPem: flags.etcdCertfile ? await readFlagFile('--etcd-certfile', flags.etcdCertfile) : undefined,
          keyPem: flags.etcdKeyfile ? await readFlagFile('--etcd-keyfile', flags.etcdKeyfile) : undefined,
        }
      : undefined,
  };
}

/** Turns the flags into server options, reading the files they name. */
export async function serveOptions(flags: ServeFlags): Promise<ServerOptions> {
  if (flags.insecureHttp && !flags.insecureNoAuth) {
    throw new CliError(
      '--insecure-http needs --insecure-no-auth: kubectl never sends credentials over plain HTTP',
    );
  }
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new CliError('--tls-cert and --tls-key go together');
  }
  const opts: ServerOptions = {
    bindAddress: flags.bindAddress,
    port: flags.port,
    bookmarkInterval: flags.bookmarkInterval,
    bookmarkLead: flags.bookmarkLead,
    historyWindow: flags.historyWindow,
    compactionInterval: flags.compactionInterval,
    minRequestTimeout: flags.minRequestTimeout,
    noBookmarks: !flags.bookmarks,
    noWatchList: !flags.watchList,
    systemNamespaces: flags.systemNamespaces,
    insecureHttp: flags.insecureHttp,
    insecureNoAuth: flags.insecureNoAuth,
    ui: flags.ui,
    disableAdmissionPlugins: admissionPluginList(flags.disableAdmissionPlugins),
    log: (message) => process.stderr.write(`watchmark serve: ${message}\n`),
  };
  if (flags.tlsCert && flags.tlsKey) {
    opts.tls = {
      certPem: await readFlagFile('--tls-cert', flags.tlsCert),
      keyPem: await readFlagFile('--tls-key', flags.tlsKey),
    };
  }
  if (flags.tokenFile)
    opts.tokenFile = { text: await readFlagFile('--token-file', flags.tokenFile), name: flags.tokenFile };
  if (flags.clientCaFile) opts.clientCA = await readFlagFile('--client-ca-file', flags.clientCaFile);
  const etcd = await etcdOptions(flags);
  if (etcd) opts.etcd = etcd;
  return opts;
}

/** The built-in simulated registry plus the images of `--sim-images FILE`. */
export async function simRegistry(path: string): Promise<ImageRegistry> {
  const registry = ImageRegistry.builtIn();
  try {
    await parseImagesFile(await readFlagFile('--sim-images', path), path, registry);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`--sim-images ${(err as Error).message}`);
  }
  return registry;
}
