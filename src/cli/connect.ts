/**
 * What the kubectl-like commands (apply, rollout) share: their connection
 * flags, turning a config failure into a one-line CLI error, reading `-f`,
 * and printing API failures the way kubectl does.
 */
import { readFile } from 'node:fs/promises';
import { KubeClient } from '../client/client.js';
import { ConfigError } from '../client/config/index.js';
import type { StatusError } from '../protocol/status.js';
import { CliError } from './errors.js';

/** kubectl's connection flags. */
export interface ConnectionFlags {
  namespace?: string;
  kubeconfig?: string;
  context?: string;
  server?: string;
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
