#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { applyCommand } from './apply.js';
import { clusterCommand } from './cluster.js';
import { demoCommand } from './demo.js';
import { CliError, errorLine } from './errors.js';
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
  // The real clock's timers are unref'd (an open watch never holds a library
  // user's process), so a command that is only waiting to retry would let the
  // process end, with exit code 0, in the middle of its work. Hold it until
  // the command has finished, one way or the other.
  const keepAlive = setInterval(() => {}, 2 ** 30);
  try {
    await program().parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${errorLine(message)}\n`);
    return err instanceof CliError ? err.exitCode : 1;
  } finally {
    clearInterval(keepAlive);
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
