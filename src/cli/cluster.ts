import { Command } from 'commander';
import { ETCD_MAX_REQUEST_BYTES, type HaCluster, startHaCluster } from '../process/index.js';
import { CliError, positiveIntArg } from './errors.js';

interface ClusterUpFlags {
  servers: number;
  etcd: number;
  dataDir?: string;
  kubeconfigOut?: string;
  etcdPrefix?: string;
  maxRequestBytes: number;
}

/** `watchmark cluster up`: etcd members and API servers on loopback until Ctrl-C or SIGTERM. */
export function clusterCommand(): Command {
  const up = new Command('up')
    .description('start an etcd cluster and several API servers over it, on loopback, until Ctrl-C')
    .option('--servers <n>', 'API servers', positiveIntArg, 2)
    .option('--etcd <n>', 'etcd members', positiveIntArg, 3)
    .option(
      '--data-dir <dir>',
      'keep etcd data, certificates and logs here (default: tmpfs, removed on exit)',
    )
    .option('--kubeconfig-out <file>', 'write the kubeconfig here (default <data dir>/kubeconfig)')
    .option('--etcd-prefix <prefix>', 'key prefix in etcd (default /watchmark)')
    .option(
      '--max-request-bytes <n>',
      "etcd's request limit; etcd's own default (1.5 MiB) is below the servers' 3 MiB body limit",
      positiveIntArg,
      ETCD_MAX_REQUEST_BYTES,
    )
    .action(async (flags: ClusterUpFlags) => {
      const say = (line: string) => process.stdout.write(`${line}\n`);
      // Ctrl-C during start-up must still tear down whatever started.
      let stopRequested = false;
      const onSignal = () => {
        stopRequested = true;
        wake();
      };
      let wake = () => {};
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      let cluster: HaCluster | undefined;
      try {
        cluster = await startHaCluster({
          servers: flags.servers,
          etcdMembers: flags.etcd,
          dataDir: flags.dataDir,
          kubeconfigOut: flags.kubeconfigOut,
          etcdPrefix: flags.etcdPrefix,
          maxRequestBytes: flags.maxRequestBytes,
          log: say,
        });
      } catch (err) {
        throw new CliError(`cluster up failed: ${(err as Error).message}`);
      }
      try {
        for (const s of cluster.servers) {
          s.process.exited.then((code) => {
            if (!stopRequested) say(`${s.name} exited (code ${code}); the others keep serving`);
          });
        }
        say(`cluster ready: kubeconfig ${cluster.kubeconfigPath}`);
        say(
          '  context watchmark fails over across every server; watchmark-0.. pin one. Ctrl-C stops everything.',
        );
        if (!stopRequested) await new Promise<void>((r) => (wake = r));
        say('stopping API servers and etcd...');
      } finally {
        await cluster.close();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      say('stopped');
    });
  return new Command('cluster')
    .description('several API servers over one etcd cluster (HA)')
    .addCommand(up.exitOverride());
}
