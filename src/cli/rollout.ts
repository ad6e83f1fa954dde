import { Command } from 'commander';
import { connectionOptions } from './connect.js';
import { durationArg } from './errors.js';
import { rolloutFollow } from './rollout-follow.js';
import { boolArg, type RolloutStatusFlags, revisionArg, rolloutStatus } from './rollout-status.js';

/**
 * `watchmark rollout -f FILE` (apply, then follow every Deployment with its
 * events) and `watchmark rollout status TYPE/NAME` (kubectl's). The
 * connection flags and --timeout belong to `rollout` so that they parse
 * the same before and after `status`.
 */
export function rolloutCommand(): Command {
  const rollout = connectionOptions(
    new Command('rollout')
      .description(
        'apply a file and follow its Deployments to ready, showing the events that explain each step',
      )
      .usage('-f FILE [options] | status TYPE/NAME [options]')
      .option('-f, --filename <file>', 'manifest to apply and follow (YAML/JSON; - reads stdin)')
      .option('-n, --namespace <ns>', "namespace (default: the context's)"),
  )
    .option('--timeout <duration>', 'give up after this long (Go duration, e.g. 90s; 0 = never)', durationArg)
    .configureHelp({ showGlobalOptions: true })
    .action(async (flags: Parameters<typeof rolloutFollow>[0], cmd: Command) => {
      if (flags.filename === undefined) {
        cmd.help({ error: true });
      }
      await rolloutFollow(flags);
    });
  rollout.addCommand(
    new Command('status')
      .description('show the status of a rollout until it is done, as kubectl rollout status')
      .argument('<resource>', 'deployment/NAME, statefulset/NAME, daemonset/NAME (deploy/, sts/, ds/ too)')
      .argument('[name]', 'the name, when the type is given on its own')
      .option(
        '-w, --watch [bool]',
        'watch until the rollout is done (--watch=false: print once)',
        boolArg,
        true,
      )
      .option('--revision <n>', 'pin to this revision (Deployments; 0 = the latest)', revisionArg, 0)
      .configureHelp({ showGlobalOptions: true })
      .action(async (resource: string, name: string | undefined, _flags: unknown, cmd: Command) => {
        await rolloutStatus(resource, name, cmd.optsWithGlobals<RolloutStatusFlags>());
      })
      .exitOverride(),
  );
  return rollout;
}
