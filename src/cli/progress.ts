/**
 * How `rollout -f` and `demo` print a rollout: one line per event, and the
 * rollout status either as a live line rewritten in place (a terminal) or as
 * plain lines, each new status once (a pipe or a file, where `\r` would be
 * noise).
 */
import type { FollowedEvent } from '../client/rollout/follow.js';

/** Where output goes: stdout in the CLI, a buffer in tests. */
export interface Output {
  write(text: string): void;
  /** A terminal: the status line is rewritten in place. */
  isTTY?: boolean;
  /** Terminal width, to keep the live line on one row (a wrapped line cannot be rewritten). */
  columns?: number;
}

/** The standard output as an {@link Output}. */
export const stdout: Output = {
  write: (text) => process.stdout.write(text),
  get isTTY() {
    return process.stdout.isTTY === true;
  },
  get columns() {
    return process.stdout.columns;
  },
};

/** The standard error as an {@link Output}. */
export const stderr: Output = { write: (text) => process.stderr.write(text) };

/** Back to column 0 and erase the line: how the live line is rewritten. */
export const CLEAR_LINE = '\r\u001b[2K';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `HH:MM:SS` in local time, or `--:--:--` for an event with no time. */
export function clockTime(ms: number | undefined): string {
  if (ms === undefined) return '--:--:--';
  return new Date(ms).toTimeString().slice(0, 8);
}

/** One event as a line: time, type, reason, object, message (`kubectl get events` columns). */
export function formatEvent(e: FollowedEvent): string {
  const { event } = e;
  const count =
    (event.count ?? event.series?.count ?? 1) > 1 ? ` (x${event.count ?? event.series?.count})` : '';
  return [
    clockTime(e.timeMs),
    (event.type ?? '').padEnd(7),
    (event.reason ?? '').padEnd(18),
    e.ref.padEnd(30),
    `${(event.message ?? '').trim()}${count}`,
  ].join(' ');
}

/** Prints events and status lines; on a terminal keeps one live status line at the bottom. */
export class ProgressPrinter {
  private readonly out: Output;
  private readonly started: number;
  private readonly now: () => number;
  private live = '';
  private lastPlain = new Map<string, string>();
  private frame = 0;
  private drawn = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(out: Output, now: () => number = Date.now) {
    this.out = out;
    this.now = now;
    this.started = now();
    if (out.isTTY) {
      // Keeps the spinner and the elapsed time moving while nothing happens.
      this.timer = setInterval(() => this.draw(), 200);
      this.timer.unref();
    }
  }

  /** Prints a line above the live status line. */
  line(text: string): void {
    this.clear();
    this.out.write(`${text}\n`);
    this.draw();
  }

  /** The latest status of `key` (a deployment): live on a terminal, else printed when it changed. */
  status(key: string, message: string): void {
    if (this.out.isTTY) {
      this.lastPlain.set(key, message);
      this.live = [...this.lastPlain.values()].join(' | ');
      this.draw();
      return;
    }
    if (this.lastPlain.get(key) === message) return;
    this.lastPlain.set(key, message);
    this.out.write(`${message}\n`);
  }

  /** Stops redrawing; the live line is removed, or kept as a plain line when `keep`. */
  close(keep = false): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
    if (keep && this.out.isTTY && this.live) this.out.write(`${this.live}\n`);
    this.live = '';
  }

  private clear(): void {
    if (this.drawn) this.out.write(CLEAR_LINE);
    this.drawn = false;
  }

  private draw(): void {
    if (!this.out.isTTY || !this.live || !this.timer) return;
    const elapsed = ((this.now() - this.started) / 1000).toFixed(1);
    let text = `${SPINNER[this.frame++ % SPINNER.length]} ${elapsed}s  ${this.live}`;
    const width = this.out.columns ?? 80;
    if (text.length > width - 1) text = `${text.slice(0, width - 2)}…`;
    this.out.write(`${CLEAR_LINE}${text}`);
    this.drawn = true;
  }
}
