/**
 * Running one exec credential plugin to completion. The plugin is never
 * interactive here: stdin is closed, and it runs in its own process group so
 * a timeout kills wrapper scripts and whatever they started (gcloud,
 * `aws eks get-token` through a shell shim) instead of orphaning them.
 */

import { spawn } from 'node:child_process';
import type { Clock } from '../../protocol/clock.js';
import { ConfigError, errnoCode } from './errors.js';

/** Largest stdout accepted: an ExecCredential with a certificate chain is a few KiB. */
const MAX_STDOUT_BYTES = 1 << 20;
/** Only the start of stderr is kept, for the first line of the error message. */
const MAX_STDERR_BYTES = 4096;

/** What to run and for how long. */
export interface PluginInvocation {
  /** Program, looked up in `env.PATH` when it has no slash. */
  command: string;
  /** Arguments. */
  args: string[];
  /** The complete environment of the plugin. */
  env: NodeJS.ProcessEnv;
  /** Kill the plugin after this long. */
  timeoutMs: number;
  /** Clock for the timeout. */
  clock: Clock;
  /** The kubeconfig's installHint, appended when the command is missing. */
  installHint?: string;
}

/**
 * Runs the plugin and resolves with its stdout. Rejects with a ConfigError
 * naming the command and exit code plus the first line of stderr; stdout is
 * never quoted, since it carries the credential.
 */
export function runPlugin(run: PluginInvocation): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const label = `exec plugin "${run.command}"`;
    const child = spawn(run.command, run.args, {
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let failure: ConfigError | undefined;
    let settled = false;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch (err) {
        // ESRCH: the whole group is already gone, which is what we wanted.
        if (errnoCode(err) !== 'ESRCH') child.kill('SIGKILL');
      }
    };
    const fail = (err: ConfigError): void => {
      failure ??= err;
      killGroup();
    };
    const timer = run.clock.setTimeout(
      () => fail(new ConfigError(`${label} did not finish within ${run.timeoutMs} ms and was killed`)),
      run.timeoutMs,
    );
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      outcome();
    };

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES)
        fail(new ConfigError(`${label} printed more than ${MAX_STDOUT_BYTES} bytes`));
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_BYTES)
        stderr = Buffer.concat([stderr, chunk]).subarray(0, MAX_STDERR_BYTES);
    });
    child.on('error', (err) => {
      settle(() => reject(spawnError(label, err, run.installHint)));
    });
    child.on('close', (code, signal) => {
      settle(() => {
        if (failure !== undefined) reject(failure);
        else if (code === 0) resolvePromise(Buffer.concat(stdout).toString('utf8'));
        else reject(exitError(label, code, signal, stderr));
      });
    });
  });
}

function spawnError(label: string, err: Error, installHint: string | undefined): ConfigError {
  const code = errnoCode(err);
  if (code === 'ENOENT') {
    const hint = installHint ? `: ${installHint.replace(/\s+/g, ' ').trim()}` : '';
    return new ConfigError(`${label} not found (is it installed and on PATH?)${hint}`);
  }
  // No `cause`: Node's spawn error carries `spawnargs`, and plugin arguments can hold secrets.
  return new ConfigError(`${label} could not be started: ${code ?? 'unknown error'}`);
}

function exitError(
  label: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: Buffer,
): ConfigError {
  const how = code !== null ? `failed with exit code ${code}` : `was killed by ${signal ?? 'a signal'}`;
  const firstLine = stderr
    .toString('utf8')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  return new ConfigError(firstLine ? `${label} ${how}: ${firstLine.slice(0, 300)}` : `${label} ${how}`);
}
