#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { applyCommand } from './apply.js';
import { clusterCommand } from './cluster.js';
import { demoCommand } from './demo.js';
import { CliError } from './errors.js';
import { rolloutCommand } from './rollout.js';
import { serveCommand } from './serve.js';
import { studyCommand } from './study.js';
import { packageVersion } from './version.js';
import { watchCommand } from './watch.js';

/** Builds the `watchmark` command tree. */
export function program(): Command {
  const cmd = new Command('watchmark')
    .description(
      'Kubernetes list-watch done right: bookmarks, resume without relisting, and an API server to prove it',
    )
    .version(packageVersion(), '-V, --version', 'print the watchmark version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  cmd.addCommand(serveCommand().exitOverride());
  cmd.addCommand(clusterCommand().exitOverride());
  cmd.addCommand(watchCommand().exitOverride());
  cmd.addCommand(applyCommand().exitOverride());
  cmd.addCommand(rolloutCommand().exitOverride());
  cmd.addCommand(demoCommand().exitOverride());
  cmd.addCommand(studyCommand().exitOverride());
  return cmd;
}

async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliError) {
      process.stderr.write(`watchmark: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`watchmark: ${(err as Error)?.message ?? String(err)}\n`);
    return 1;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
