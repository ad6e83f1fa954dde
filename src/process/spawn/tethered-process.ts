/**
 * A child process that cannot outlive this one, whatever way this one dies
 * (SIGKILL included): it runs under a tiny `sh` wrapper whose stdin is a
 * pipe from this process. When the pipe closes, the wrapper SIGKILLs its
 * program; a Node `exit` handler alone would not survive a SIGKILL or a
 * crashed test worker. etcd members, reference control planes and the API
 * servers of `watchmark cluster up` all run this way.
 */
import { type ChildProcess, spawn } from 'node:child_process';

// $1 is the program, the rest its arguments. fd 3 keeps our stdin: a
// background job's own stdin is /dev/null. EOF on it (we closed it, or we
// died) means SIGKILL the program. SIGTERM to the wrapper is passed on.
const WRAPPER = [
  'bin="$1"; shift',
  'exec 3<&0',
  '"$bin" "$@" </dev/null &',
  'pid=$!',
  'echo "tethered-pid $pid"',
  '(cat <&3 >/dev/null; kill -KILL $pid 2>/dev/null) &',
  'watchdog=$!',
  "trap 'kill -TERM $pid 2>/dev/null' TERM INT",
  // A trapped signal interrupts the first wait; the second waits for the program's own exit.
  'wait $pid 2>/dev/null; status=$?; wait $pid 2>/dev/null',
  'kill $watchdog 2>/dev/null',
  'exit $status',
].join('\n');

/**
 * A child process that cannot outlive this one: it runs under a small `sh`
 * wrapper whose stdin is a pipe from here, and when that pipe closes (we
 * closed it, or this process died, even by SIGKILL) the wrapper SIGKILLs it.
 * Its stdout is a pipe (`stdout`), its stderr goes to `stderrFd` or is inherited.
 */
export class TetheredProcess {
  /** The wrapper process (its stdout carries the program's). */
  readonly wrapper: ChildProcess;
  /** Resolves when the program (and its wrapper) have exited, with the program's exit code. */
  readonly exited: Promise<number | null>;
  private programPid: number | undefined;
  private gone = false;

  constructor(command: string, args: string[], stderrFd?: number) {
    const child = spawn('/bin/sh', ['-c', WRAPPER, 'sh', command, ...args], {
      stdio: ['pipe', 'pipe', stderrFd ?? 'inherit'],
      // A group of its own: a terminal's Ctrl-C reaches only us, and we stop
      // children in order (API servers before the etcd they write to).
      detached: true,
    });
    this.wrapper = child;
    child.stdout?.setEncoding('utf8');
    let head = '';
    const findPid = (text: string) => {
      head += text;
      const match = /tethered-pid (\d+)/.exec(head);
      if (match) {
        this.programPid = Number(match[1]);
        child.stdout?.off('data', findPid);
      }
    };
    child.stdout?.on('data', findPid);
    // An EPIPE on a stdin we are closing is expected: the wrapper may be gone already.
    child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        this.gone = true;
        child.stdin?.destroy();
        resolve(code);
      });
    });
  }

  /** The program's own process id (not the wrapper's), once known. */
  get pid(): number | undefined {
    return this.gone ? undefined : this.programPid;
  }

  /** Whether the program is still running. */
  get running(): boolean {
    return !this.gone;
  }

  /** SIGKILLs the program, as a crash would, and waits for it. */
  async kill(): Promise<void> {
    this.wrapper.stdin?.end();
    await this.exited;
  }

  /** SIGTERMs the program, then SIGKILLs it if it is not gone within `graceMs`. */
  async stop(graceMs = 3_000): Promise<void> {
    if (this.gone) return;
    this.wrapper.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), graceMs);
    });
    const outcome = await Promise.race([this.exited.then(() => 'gone' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') await this.kill();
  }
}
