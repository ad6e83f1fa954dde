import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { CONTROLLERS } from '../controllers/index.js';
import { generateServingCertificates, startServer } from '../server/index.js';
import { startSimulation } from '../sim/index.js';
import { CliError, durationArg, portArg, positiveIntArg } from './errors.js';
import { controllerList, type ServeFlags, serveOptions, simRegistry } from './serve-options.js';
import { publishKubeconfig, readSources, runControllers, seed } from './serve-setup.js';

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
      `controllers to run, as kube-controller-manager names them: ${CONTROLLERS.join(', ')} (gc for the garbage collector), * for all, -name to leave one out; namespace runs inside the server and is always on`,
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
      // Without the serviceaccount controller no namespace gets the `default` account the
      // ServiceAccount plugin requires of every pod: off then, as envtest runs kube-apiserver,
      // unless --disable-admission-plugins says what to turn off.
      if (flags.disableAdmissionPlugins === undefined && !controllerNames.includes('serviceaccount'))
        opts.disableAdmissionPlugins = ['ServiceAccount'];
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
          // The simulation is a client like any other: it reaches the server through the kubeconfig,
          // and the server reaches its kubelets' logs through their Nodes' address and port.
          const serving = await generateServingCertificates({ hosts: ['localhost'] });
          const sim = await startSimulation({
            kubeletServing: { key: serving.keyPem, cert: serving.certPem },
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
