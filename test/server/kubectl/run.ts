/**
 * Running real kubectl binaries from a test without blocking the event loop:
 * the API server under test lives in this process, so every kubectl is an
 * async child (`execFile`), never `execSync`. A {@link KubectlSession} owns
 * one kubectl's private HOME, cache dir and namespace, and every child it
 * started, so a failing test never leaves a kubectl behind.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { join } from 'node:path';
import type { KubectlBinary } from '../../helpers/tools.js';

/** How one kubectl run ended. `code` is null when it was killed (`signal` says by what). */
export interface KubectlResult {
  /** The command line, for assertion messages. */
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A kubectl still running in the background (a watch). */
export interface BackgroundKubectl {
  /** What it printed so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  /**
   * Resolves once `pred(stdout, stderr)` holds; rejects after `timeoutMs` or when kubectl exits
   * first. One waiter at a time.
   */
  waitFor(what: string, pred: (stdout: string, stderr: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when kubectl exits by itself (or is stopped). */
  readonly done: Promise<KubectlResult>;
  /** Sends SIGTERM (if still running) and waits for the exit. */
  stop(): Promise<KubectlResult>;
}

/** Longest a one-shot kubectl may run; watches end earlier by design. */
const RUN_TIMEOUT_MS = 30_000;

/**
 * One kubectl binary with its own fresh HOME and `--cache-dir` (so discovery
 * and the dispatcher's /version cache start empty) and its own namespace.
 */
export class KubectlSession {
  private readonly children = new Set<ChildProcess>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly cacheDir: string;

  constructor(
    readonly binary: KubectlBinary,
    /** A private directory: HOME, the cache dir and manifests go here. */
    readonly dir: string,
    kubeconfigPath: string,
    /** The namespace this kubectl works in (`-n` on every namespaced command). */
    readonly namespace: string,
  ) {
    this.cacheDir = join(dir, 'cache');
    // A clean environment: no inherited KUBECONFIG, proxies or kubectl settings.
    this.env = { PATH: process.env.PATH, HOME: join(dir, 'home'), KUBECONFIG: kubeconfigPath, LANG: 'C' };
  }

  /** Runs `kubectl <args> --cache-dir=<own>` to completion. */
  run(args: string[], timeoutMs = RUN_TIMEOUT_MS): Promise<KubectlResult> {
    return this.start(args, timeoutMs).done;
  }

  /** Runs `kubectl -n <namespace> <args>` to completion. */
  inNamespace(args: string[], timeoutMs = RUN_TIMEOUT_MS): Promise<KubectlResult> {
    return this.run(['-n', this.namespace, ...args], timeoutMs);
  }

  /** Starts `kubectl <args> --cache-dir=<own>` in the background (the flag goes before a `--`). */
  start(args: string[], timeoutMs = RUN_TIMEOUT_MS): BackgroundKubectl {
    const end = args.includes('--') ? args.indexOf('--') : args.length;
    const argv = [...args.slice(0, end), `--cache-dir=${this.cacheDir}`, ...args.slice(end)];
    let stdout = '';
    let stderr = '';
    let wake: (() => void) | undefined;
    let exited: KubectlResult | undefined;
    const child = execFile(
      this.binary.path,
      argv,
      { env: this.env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      // The outcome (exit code or signal, output) is read from 'close' below, for every path.
      () => {},
    );
    this.children.add(child);
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (s: string) => {
      stdout += s;
      wake?.();
    });
    child.stderr?.on('data', (s: string) => {
      stderr += s;
      wake?.();
    });
    const done = new Promise<KubectlResult>((resolve) => {
      // 'close' (not 'exit'): both pipes are drained, so stdout is complete.
      child.on('close', (code, signal) => {
        this.children.delete(child);
        exited = { command: `${this.binary.name} ${args.join(' ')}`, code, signal, stdout, stderr };
        wake?.();
        resolve(exited);
      });
    });
    const waitFor = async (what: string, pred: (o: string, e: string) => boolean, ms = 15_000) => {
      const deadline = Date.now() + ms;
      while (!pred(stdout, stderr)) {
        const show = () => `\n--- stdout:\n${stdout}\n--- stderr:\n${stderr}`;
        if (exited) throw new Error(`kubectl ${args.join(' ')} exited before ${what}${show()}`);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`timed out waiting for ${what} from kubectl ${args.join(' ')}${show()}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    };
    return {
      stdout: () => stdout,
      stderr: () => stderr,
      waitFor,
      done,
      stop: () => {
        if (!exited) child.kill('SIGTERM');
        return done;
      },
    };
  }

  /** Kills whatever this session still runs (after a failure) and waits for the exits. */
  async close(): Promise<void> {
    const left = [...this.children];
    for (const child of left) child.kill('SIGKILL');
    await Promise.all(
      left.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise<void>((resolve) => child.once('close', () => resolve())),
      ),
    );
  }
}

/** One HTTP request that kubectl logged at `-v=6` (both the 1.27 and the structured 1.30+ log format). */
export interface LoggedRequest {
  method: string;
  url: URL;
  status: string;
}

const PLAIN_REQUEST =
  /round_trippers\.go:\d+\] (GET|POST|PUT|PATCH|DELETE) (\S+) (\d{3} [^\n]*?) in \d+ milliseconds/;
const STRUCTURED_REQUEST = /"Response" verb="(\w+)" url="([^"]+)" status="([^"]+)"/;

/** The requests a `-v=6` kubectl logged on stderr, in order. */
export function loggedRequests(stderr: string): LoggedRequest[] {
  const requests: LoggedRequest[] = [];
  for (const line of stderr.split('\n')) {
    const m = PLAIN_REQUEST.exec(line) ?? STRUCTURED_REQUEST.exec(line);
    if (m) requests.push({ method: m[1], url: new URL(m[2]), status: m[3] });
  }
  return requests;
}
