import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** A running `watchmark` child process (TypeScript sources through tsx). */
export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
  /** Resolves with the first stdout line matching `re`. */
  waitForLine(re: RegExp, timeoutMs?: number): Promise<string>;
}

/** Starts `watchmark ARGS...`. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
    for (const l of listeners) l();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exit,
    waitForLine(re, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = out.split('\n').find((l) => re.test(l));
          if (line !== undefined) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(line);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no line matching ${re} within ${timeoutMs} ms; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        listeners.add(check);
        exit.then(() => {
          check();
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`exited before a line matching ${re}; stdout: ${out}; stderr: ${err}`));
          }
        });
        check();
      });
    },
  };
}
