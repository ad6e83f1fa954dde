/**
 * What the kubectl-like commands (apply, rollout) share: their connection
 * flags, turning a config failure into a one-line CLI error, reading `-f`,
 * and printing API failures the way kubectl does.
 */
import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { KubeClient } from '../client/client.js';
import { ConfigError } from '../client/config/index.js';
import type { StatusError } from '../protocol/status.js';
import { CliError, durationArg } from './errors.js';

/** kubectl's connection flags. */
export interface ConnectionFlags {
  namespace?: string;
  kubeconfig?: string;
  context?: string;
  server?: string;
  /** ms; 0 waits forever. */
  requestTimeout?: number;
}

/** Adds kubectl's connection flags (but `-n`, whose help differs per command) to `cmd`. */
export function connectionOptions(cmd: Command): Command {
  return cmd
    .option('--kubeconfig <file>', 'kubeconfig file (default: KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--context <name>', 'kubeconfig context')
    .option('--server <url>', "API server URL (overrides the kubeconfig's)")
    .option(
      '--request-timeout <duration>',
      'give up on a request not answered in this long (1s, 2m; a bare number is seconds; 0 = never; default 60s; watches excepted)',
      requestTimeoutArg,
    );
}

/** kubectl's `--request-timeout`: a Go duration, or a whole number of seconds. */
function requestTimeoutArg(value: string): number {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  try {
    return durationArg(value);
  } catch (err) {
    const reason = err instanceof Error ? `: ${err.message}` : '';
    throw new InvalidArgumentError(
      `invalid request timeout ${JSON.stringify(value)}${reason} (want a duration like 1s or 2m, or whole seconds)`,
    );
  }
}

/** Loads the connection kubectl would use for these flags. */
export async function connect(flags: ConnectionFlags): Promise<KubeClient> {
  try {
    return await KubeClient.load({
      kubeconfig: flags.kubeconfig,
      context: flags.context,
      server: flags.server,
      namespace: flags.namespace,
      qps: 50,
      burst: 100,
      requestTimeoutMs: flags.requestTimeout,
    });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}

/** Reads `-f FILE` (`-` is standard input); resolves with the text and kubectl's name for it. */
export async function readManifestFile(file: string): Promise<{ text: string; source: string }> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString('utf8'), source: 'STDIN' };
  }
  try {
    return { text: await readFile(file, 'utf8'), source: file };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`the path "${file}" does not exist`);
    if (code === 'EISDIR') throw new CliError(`${file} is a directory: name one manifest file`);
    throw new CliError(`${file}: ${(err as Error).message}`);
  }
}

/** An API failure as kubectl prints it: `Error from server (NotFound): deployments.apps "web" not found`. */
export function serverErrorLine(err: StatusError): string {
  return `Error from server (${err.reason || err.code}): ${err.message}`;
}
