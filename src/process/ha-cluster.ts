/**
 * `watchmark cluster up`'s cluster: etcd members and several API servers
 * over them, all on loopback and tethered (each dies with this process),
 * one CA and admin token for every server, and a kubeconfig that lists them
 * all so watchmark's client fails over along it. A kept data directory
 * keeps etcd's ports, so a restart over it finds its members again.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import {
  buildKubeconfig,
  generateServingCertificates,
  generateToken,
  writeKubeconfig,
} from '../server/index.js';
import {
  ETCD_MAX_REQUEST_BYTES,
  type EtcdCluster,
  PortTakenError,
  startEtcdCluster,
} from './spawn/etcd-launcher.js';
import { freePort } from './spawn/free-port.js';
import { TetheredProcess } from './spawn/tethered-process.js';

/** Options of {@link startHaCluster}. */
export interface HaClusterOptions {
  /** API servers (default 2). */
  servers?: number;
  /** etcd members (default 3). */
  etcdMembers?: number;
  /** Keep everything here (etcd data, certificates, logs) across runs; a temporary tmpfs directory when absent. */
  dataDir?: string;
  /** Where to write the kubeconfig (default `<data dir>/kubeconfig`). */
  kubeconfigOut?: string;
  /** The servers' `--etcd-prefix`. */
  etcdPrefix?: string;
  /** etcd's `--max-request-bytes` (default 4 MiB, above the API server's 3 MiB body limit). */
  maxRequestBytes?: number;
  /** How to run `watchmark` for the servers (default: this very program, as it was started). */
  watchmark?: { command: string; args: string[] };
  /** Progress lines. */
  log?: (line: string) => void;
}

/** One API server process of the cluster. */
export interface HaServer {
  readonly name: string;
  readonly url: string;
  readonly process: TetheredProcess;
  /** Where its stderr goes. */
  readonly logPath: string;
}

/** A running cluster: etcd members and API servers, all on loopback. */
export interface HaCluster {
  readonly etcd: EtcdCluster;
  readonly servers: HaServer[];
  readonly kubeconfigPath: string;
  readonly dataDir: string;
  /** Stops the servers, then etcd; removes a temporary data directory. */
  close(): Promise<void>;
}

interface SavedState {
  etcdPorts: Array<{ client: number; peer: number }>;
  token: string;
}

/** Starts `etcdMembers` etcd members and `servers` API servers over them, and writes a kubeconfig listing every server. */
export async function startHaCluster(opts: HaClusterOptions = {}): Promise<HaCluster> {
  const log = opts.log ?? (() => {});
  const ownsDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir
    ? resolve(opts.dataDir)
    : await mkdtemp(join(existsSync('/dev/shm') ? '/dev/shm' : '/tmp', 'watchmark-cluster-'));
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const started: { etcd?: EtcdCluster; servers: HaServer[] } = { servers: [] };
  const close = async () => {
    await Promise.all(started.servers.map((s) => s.process.stop()));
    await started.etcd?.close();
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    let { state, fresh } = await loadState(dataDir, opts.etcdMembers ?? 3);
    log(
      `starting etcd: ${state.etcdPorts.length} member(s) on 127.0.0.1, data in ${join(dataDir, 'etcd')}${ownsDir ? ' (tmpfs, removed on exit)' : ''}`,
    );
    let etcd: EtcdCluster;
    for (let attempt = 1; ; attempt++) {
      try {
        etcd = await startEtcdCluster({
          members: state.etcdPorts.length,
          ports: state.etcdPorts,
          dataDir: join(dataDir, 'etcd'),
          maxRequestBytes: opts.maxRequestBytes ?? ETCD_MAX_REQUEST_BYTES,
        });
        break;
      } catch (err) {
        // A new cluster's free port was taken by another process before etcd bound it:
        // new ports, a clean etcd directory, and again. Kept data keeps its ports.
        if (!fresh || attempt >= 3 || !(err instanceof PortTakenError)) throw err;
        await rm(join(dataDir, 'etcd'), { recursive: true, force: true });
        await rm(join(dataDir, 'cluster.json'), { force: true });
        ({ state, fresh } = await loadState(dataDir, state.etcdPorts.length));
      }
    }
    started.etcd = etcd;
    for (const m of etcd.members) log(`  etcd ${m.name} ${m.clientUrl} (pid ${m.pid})`);

    // One CA and token for every server: a client trusts and reaches them all alike.
    const tls = await servingFiles(dataDir);
    const tokenFile = join(dataDir, 'tokens.csv');
    await writeFile(tokenFile, `${state.token},watchmark-admin,watchmark-admin,"system:masters"\n`, {
      mode: 0o600,
    });
    const count = opts.servers ?? 2;
    log(`starting ${count} API server(s) over etcd prefix ${opts.etcdPrefix ?? '/watchmark'}`);
    const watchmark = opts.watchmark ?? {
      command: process.execPath,
      args: [...process.execArgv, process.argv[1]],
    };
    const launches = Array.from({ length: count }, (_, i) => {
      const args = [
        ...watchmark.args,
        'serve',
        `--etcd-servers=${etcd.endpoints.join(',')}`,
        `--tls-cert=${tls.certFile}`,
        `--tls-key=${tls.keyFile}`,
        `--token-file=${tokenFile}`,
        `--kubeconfig-out=${join(dataDir, `api-${i}.kubeconfig`)}`,
      ];
      if (opts.etcdPrefix) args.push(`--etcd-prefix=${opts.etcdPrefix}`);
      return startServerProcess(`api-${i}`, watchmark.command, args, dataDir);
    });
    // Started side by side (each takes a few seconds to load); all kept for teardown even if one fails.
    const outcomes = await Promise.allSettled(launches);
    for (const o of outcomes) if (o.status === 'fulfilled') started.servers.push(o.value);
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    for (const server of started.servers) {
      log(`  ${server.name} ${server.url} (pid ${server.process.pid}, log ${server.logPath})`);
    }
    const kubeconfigPath = opts.kubeconfigOut ?? join(dataDir, 'kubeconfig');
    await writeKubeconfig(
      kubeconfigPath,
      haKubeconfig(
        started.servers.map((s) => s.url),
        tls.caPem,
        state.token,
      ),
    );
    return { etcd, servers: started.servers, kubeconfigPath, dataDir, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The saved ports and token of a kept data directory, or new ones (saved when the directory is kept). */
async function loadState(dataDir: string, members: number): Promise<{ state: SavedState; fresh: boolean }> {
  const path = join(dataDir, 'cluster.json');
  try {
    // etcd members remember their peers' URLs: a restart over kept data must reuse the ports.
    return { state: JSON.parse(await readFile(path, 'utf8')) as SavedState, fresh: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const etcdPorts: SavedState['etcdPorts'] = [];
  for (let i = 0; i < members; i++) etcdPorts.push({ client: await freePort(), peer: await freePort() });
  const state = { etcdPorts, token: generateToken() };
  await writeFile(path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  return { state, fresh: true };
}

async function servingFiles(dataDir: string): Promise<{ certFile: string; keyFile: string; caPem: string }> {
  const certFile = join(dataDir, 'serving.crt');
  const keyFile = join(dataDir, 'serving.key');
  const caFile = join(dataDir, 'ca.crt');
  if (!existsSync(caFile)) {
    const certs = await generateServingCertificates({ hosts: ['127.0.0.1'] });
    await writeFile(certFile, certs.certPem);
    await writeFile(keyFile, certs.keyPem, { mode: 0o600 });
    await writeFile(caFile, certs.caCertPem);
  }
  return { certFile, keyFile, caPem: await readFile(caFile, 'utf8') };
}

/** Starts one `watchmark serve` and waits for its ready line. */
async function startServerProcess(
  name: string,
  command: string,
  args: string[],
  dir: string,
): Promise<HaServer> {
  const logPath = join(dir, `${name}.log`);
  const logFile = await open(logPath, 'a');
  let child: TetheredProcess;
  try {
    child = new TetheredProcess(command, args, logFile.fd);
  } finally {
    await logFile.close();
  }
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${name} not ready after 30 s (log: ${logPath})`)), 30_000);
    const onData = (text: string) => {
      out += text;
      const match = /ready at (\S+)/.exec(out);
      if (match) {
        cleanup();
        resolveUrl(match[1]);
      }
    };
    const onExit = () => fail(new Error(`${name} exited while starting (log: ${logPath})`));
    const fail = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.wrapper.stdout?.off('data', onData);
      child.wrapper.off('exit', onExit);
    };
    child.wrapper.stdout?.on('data', onData);
    child.wrapper.once('exit', onExit);
  }).catch(async (err: Error) => {
    await child.kill();
    throw err;
  });
  // Keep draining its stdout so the pipe never fills.
  child.wrapper.stdout?.resume();
  return { name, url, process: child, logPath };
}

/**
 * The kubeconfig of an HA cluster: context `watchmark` names the first server
 * and lists them all in the `watchmark.io/servers` extension (watchmark's
 * client fails over along it; kubectl ignores it), and a context per server
 * (`watchmark-0`, ...) pins one.
 */
export function haKubeconfig(urls: string[], caPem: string, token: string): string {
  const doc = parse(buildKubeconfig({ server: urls[0], caPem, token })) as {
    clusters: Array<{ name: string; cluster: Record<string, unknown> }>;
    contexts: Array<{ name: string; context: Record<string, unknown> }>;
  };
  const main = doc.clusters[0];
  main.cluster.extensions = [{ name: 'watchmark.io/servers', extension: { servers: urls } }];
  urls.forEach((url, i) => {
    doc.clusters.push({
      name: `watchmark-${i}`,
      cluster: { ...main.cluster, server: url, extensions: undefined },
    });
    doc.contexts.push({ name: `watchmark-${i}`, context: { cluster: `watchmark-${i}`, user: 'watchmark' } });
  });
  return stringify(doc);
}
