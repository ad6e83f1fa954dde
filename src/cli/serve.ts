import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Command } from 'commander';
import { KubeClient } from '../client/client.js';
import { ManifestError } from '../client/kubectl/manifest.js';
import {
  createObjects,
  installCustomResourceDefinitions,
  readManifestSources,
  SeedObjectError,
} from '../client/kubectl/sources.js';
import {
  ControllerListError,
  type ControllerName,
  parseControllerList,
  type RunningControllers,
  startControllers,
} from '../controllers/index.js';
import type { KubeObject } from '../protocol/events.js';
import { disabledAdmissionPlugins, startServer } from '../server/index.js';
import type { ServerOptions } from '../server/options.js';
import { writeKubeconfig } from '../server/pki/kubeconfig.js';
import { ImageRegistry, parseImagesFile, startSimulation } from '../sim/index.js';
import { CliError, durationArg, portArg, positiveIntArg } from './errors.js';

interface ServeFlags {
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
function controllerList(text: string): ControllerName[] {
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
async function simRegistry(path: string): Promise<ImageRegistry> {
  const registry = ImageRegistry.builtIn();
  try {
    await parseImagesFile(await readFlagFile('--sim-images', path), path, registry);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`--sim-images ${(err as Error).message}`);
  }
  return registry;
}

/** `watchmark serve`: the API server until SIGTERM or Ctrl-C. */
export function serveCommand(): Command {
  return new Command('serve')
    .description("run a Kubernetes-compatible API server whose watch behaves like kube-apiserver's")
    .option('--bind-address <ip>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0 picks a free one)', portArg, 0)
    .option('--kubeconfig-out <file>', 'write a kubeconfig for this server here (mode 0600)')
    .option('--tls-cert <file>', 'serving certificate (PEM); generated with its own CA when absent')
    .option('--tls-key <file>', 'serving key (PEM)')
    .option(
      '--token-file <file>',
      'static bearer tokens, kube-apiserver CSV format: token,user,uid,"group1,group2"',
    )
    .option('--client-ca-file <file>', 'CA bundle that signs accepted x509 client certificates')
    .option('--insecure-no-auth', 'accept every request without credentials')
    .option('--insecure-http', 'serve plain HTTP (needs --insecure-no-auth)')
    .option(
      '--bookmark-interval <duration>',
      'how often each watcher that allows bookmarks gets one (default 1m)',
      durationArg,
    )
    .option(
      '--bookmark-lead <duration>',
      'how long before a watch deadline its last bookmark goes (default 2s)',
      durationArg,
    )
    .option(
      '--history-window <duration>',
      'how far back the watch cache history reaches (default 75s)',
      durationArg,
    )
    .option(
      '--compaction-interval <duration>',
      'how long the store keeps old revisions (default 5m, 0 = never)',
      durationArg,
    )
    .option(
      '--min-request-timeout <duration>',
      'watch timeout is random in [1x, 2x) of this without timeoutSeconds (default 30m)',
      durationArg,
    )
    .option(
      '--etcd-servers <urls>',
      'serve from etcd: comma-separated client URLs (default: an in-memory store). Several servers on one etcd form one API',
    )
    .option('--etcd-prefix <prefix>', 'key prefix in etcd (default /watchmark)')
    .option('--etcd-cafile <file>', 'CA bundle (PEM) of https etcd servers')
    .option('--etcd-certfile <file>', 'client certificate (PEM) for etcd')
    .option('--etcd-keyfile <file>', 'client key (PEM) for etcd')
    .option('--no-bookmarks', 'never send periodic bookmarks (streaming lists still end with their marker)')
    .option('--no-watch-list', 'reject sendInitialEvents with 422, like kube-apiserver with WatchList off')
    .option(
      '--no-system-namespaces',
      'do not create default, kube-system, kube-public and kube-node-lease at start',
    )
    .option(
      '--simulate',
      'also run a simulated cluster against the server: deployment and replicaset controllers, scheduler, garbage collector, kubelets',
    )
    .option(
      '--controllers <list>',
      'controllers to run: namespace, garbagecollector (gc), * for both, -name to leave one out; namespace runs inside the server and is always on',
      'namespace',
    )
    .option(
      '--disable-admission-plugins <names>',
      'built-in admission plugins to turn off, comma-separated: ServiceAccount (as envtest does), Priority, DefaultTolerationSeconds, TaintNodesByCondition',
    )
    .option('--no-ui', 'do not serve the live view of the watches at /ui')
    .option('--nodes <n>', 'nodes of the simulated cluster (default 3; needs --simulate)', positiveIntArg)
    .option(
      '--sim-images <file>',
      'more images the simulated registry has: a YAML or JSON list of REPO:TAG, REPO or REPO:* (needs --simulate)',
    )
    .option(
      '--sim-checkpoint-dir <dir>',
      "checkpoint the simulated controllers' informers in DIR and resume from it on restart (needs --simulate)",
    )
    .option(
      '--crds <path>',
      'CustomResourceDefinitions to install before ready: a file or a folder of *.yaml, *.yml, *.json (read as kubectl apply -f DIR -R); repeatable',
      collectPaths,
    )
    .option(
      '--objects <path>',
      'objects to create before ready (after --crds; Namespaces first): a file or a folder; repeatable',
      collectPaths,
    )
    .action(async (flags: ServeFlags) => {
      if (flags.nodes !== undefined && !flags.simulate) throw new CliError('--nodes needs --simulate');
      if (flags.simImages !== undefined && !flags.simulate)
        throw new CliError('--sim-images needs --simulate');
      if (flags.simCheckpointDir !== undefined && !flags.simulate)
        throw new CliError('--sim-checkpoint-dir needs --simulate');
      const controllerNames = controllerList(flags.controllers);
      const registry = flags.simImages ? await simRegistry(flags.simImages) : undefined;
      // Read before anything listens: a bad file is one line and a non-zero exit.
      const crds = await readSources('--crds', flags.crds ?? []);
      const seeds = await readSources('--objects', flags.objects ?? []);
      if (flags.simCheckpointDir) await mkdir(flags.simCheckpointDir, { recursive: true });
      const opts = await serveOptions(flags);
      // The server's own kubeconfig goes to a private file that the controllers, the seeding and
      // the simulation use; --kubeconfig-out is written only once all of them are ready, so a
      // script may wait for that file instead of reading stdout.
      const tempDir = await mkdtemp(join(tmpdir(), 'watchmark-'));
      opts.kubeconfigOut = join(tempDir, 'kubeconfig');
      const cleanup: Array<() => Promise<unknown>> = [() => rm(tempDir, { recursive: true, force: true })];
      const stop = async () => {
        for (const c of cleanup.splice(0).reverse()) await c();
      };
      let server: Awaited<ReturnType<typeof startServer>>;
      try {
        server = await startServer(opts);
      } catch (err) {
        await stop();
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE')
          throw new CliError(`cannot listen on ${flags.bindAddress}:${flags.port}: address in use`);
        if (code === 'EADDRNOTAVAIL')
          throw new CliError(`cannot listen on ${flags.bindAddress}: address not available`);
        throw new CliError((err as Error).message);
      }
      cleanup.push(() => server.close());
      const kubeconfig = opts.kubeconfigOut;
      const later: string[] = [];
      try {
        if (crds.length > 0 || seeds.length > 0) {
          later.push(...(await seed(kubeconfig, crds, seeds)));
        }
        if (controllerNames.includes('garbagecollector')) {
          const controllers = await runControllers(kubeconfig, controllerNames, cleanup);
          later.push(
            `controllers running: ${controllerNames.join(', ')} (garbage collector watching ${controllers.gcResources.length} resources)`,
          );
        }
        if (flags.simulate) {
          // The simulation is a client like any other: it reaches the server through the kubeconfig.
          const sim = await startSimulation({
            kubeconfig,
            nodes: flags.nodes,
            // One garbage collector per cluster: --controllers gc has started it already.
            garbageCollector: !controllerNames.includes('garbagecollector'),
            registry,
            checkpointDir: flags.simCheckpointDir,
            log: (line) => process.stderr.write(`watchmark serve: simulate: ${line}\n`),
          }).catch((err: unknown) => {
            throw new CliError((err as Error).message);
          });
          cleanup.push(() => sim.stop());
          const nodes = sim.nodes;
          later.push(
            `simulated cluster ready: ${nodes.length} node${nodes.length === 1 ? '' : 's'} (${nodes[0]}..${nodes[nodes.length - 1]})`,
          );
        }
        if (flags.kubeconfigOut) await publishKubeconfig(flags.kubeconfigOut, server.kubeconfig);
      } catch (err) {
        await stop();
        throw err;
      }
      const shown = flags.kubeconfigOut ?? kubeconfig;
      process.stdout.write(`watchmark API server ready at ${server.url} (kubeconfig: ${shown})\n`);
      const uiUrl = server.uiLoginUrl();
      if (uiUrl) {
        const once = uiUrl.includes('/ui/login?code=') ? ' (this link logs in once)' : '';
        process.stdout.write(`live view${once}: ${uiUrl}\n`);
      }
      for (const line of later) process.stdout.write(`${line}\n`);
      await new Promise<void>((resolve) => {
        const done = () => resolve();
        process.once('SIGTERM', done);
        process.once('SIGINT', done);
      });
      await stop();
    });
}

/** commander's collector for a repeatable path flag. */
function collectPaths(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The manifests of `--crds` or `--objects`, read before the server starts. */
async function readSources(flag: string, paths: string[]): Promise<KubeObject[]> {
  try {
    return await readManifestSources(paths);
  } catch (err) {
    if (err instanceof ManifestError) throw new CliError(`${flag} ${err.message}`);
    throw err;
  }
}

/**
 * Installs the definitions (waiting until each is Established and served), then
 * creates the objects; returns the lines that say so.
 */
async function seed(kubeconfig: string, crds: KubeObject[], objects: KubeObject[]): Promise<string[]> {
  const kube = await KubeClient.load({ kubeconfig, qps: 0 });
  const lines: string[] = [];
  try {
    if (crds.length > 0) {
      try {
        await installCustomResourceDefinitions(kube, crds);
      } catch (err) {
        throw seedError('--crds', err);
      }
      const names = crds.map((c) => c.metadata?.name).join(', ');
      lines.push(`custom resource definitions established: ${names}`);
    }
    if (objects.length > 0) {
      try {
        await createObjects(kube, objects);
      } catch (err) {
        throw seedError('--objects', err);
      }
      lines.push(`objects created: ${objects.length}`);
    }
  } finally {
    await kube.close();
  }
  return lines;
}

/** `--crds FILE: ...` when the error names the file (as a read error does), else `--crds: ...`. */
function seedError(flag: string, err: unknown): CliError {
  const message = (err as Error).message;
  return new CliError(
    err instanceof SeedObjectError && err.source ? `${flag} ${message}` : `${flag}: ${message}`,
  );
}

/** The controllers of `--controllers`, a client like any other (as kube-controller-manager is), synced. */
async function runControllers(
  kubeconfig: string,
  names: ControllerName[],
  cleanup: Array<() => Promise<unknown>>,
): Promise<RunningControllers> {
  let controllers: RunningControllers | undefined;
  try {
    controllers = await startControllers({
      kubeconfig,
      controllers: names,
      log: (line) => process.stderr.write(`watchmark serve: controllers: ${line}\n`),
    });
    const running = controllers;
    cleanup.push(() => running.close());
    await controllers.synced();
    return controllers;
  } catch (err) {
    throw new CliError(`--controllers: ${(err as Error).message}`);
  }
}

/**
 * Writes `--kubeconfig-out` whole or not at all (a sibling file renamed over it), so a
 * script polling for the file never reads half of it.
 */
async function publishKubeconfig(path: string, text: string): Promise<void> {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  try {
    await writeKubeconfig(partial, text);
    await rename(partial, path);
  } catch (err) {
    await rm(partial, { force: true });
    throw new CliError(`--kubeconfig-out ${path}: ${(err as Error).message}`);
  }
}
