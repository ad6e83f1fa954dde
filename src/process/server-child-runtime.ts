/**
 * Child side of an API server in its own process (see server-fork.ts): starts
 * the server, says `ready`, answers the parent's messages, and closes the
 * server and exits once, on whichever comes first of `close`, the parent
 * going away, or a signal. A server that cannot close within 5 s must not
 * keep its parent (study or benchmark) waiting.
 */
import type { RunningServer } from '../server/index.js';

/** What a server child does besides the common lifecycle. */
export interface ServerChildSpec {
  /** Prefix of this child's own log lines. */
  label: string;
  /**
   * Starts the server and hands it to `own` as soon as it exists (a close from
   * then on closes it); resolves with the fields of the `ready` message besides `type`.
   */
  start(own: (server: RunningServer) => void): Promise<Record<string, unknown>>;
  /** Answers a `sample` message (omitted: samples are not served). */
  sample?(server: RunningServer): unknown;
  /** Handles the parent's other messages (not `sample` or `close`); `server` is undefined before it started. */
  onMessage?(message: { type: string }, server: RunningServer | undefined): void;
  /** Exit on SIGINT too (130), for a child run from a terminal. */
  exitOnSigint?: boolean;
}

/** Sends `message` to the parent, if it is still there. */
export function sendToParent(message: unknown): void {
  if (process.connected) process.send?.(message);
}

/** Runs this process as a server child: never returns control except through `process.exit`. */
export function runServerChild(spec: ServerChildSpec): void {
  let server: RunningServer | undefined;
  let exiting = false;

  async function shutdown(code: number): Promise<void> {
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(code), 5_000).unref();
    try {
      await server?.close();
    } catch (err) {
      process.stderr.write(`${spec.label}: close failed: ${(err as Error).message}\n`);
    }
    process.exit(code);
  }

  process.on('message', (message: { type: string; id?: number }) => {
    // Samples are asked for only after 'ready', when the server exists.
    if (message.type === 'sample') {
      if (server && spec.sample)
        sendToParent({ type: 'sample', id: message.id, sample: spec.sample(server) });
    } else if (message.type === 'close') void shutdown(0);
    else spec.onMessage?.(message, server);
  });
  // The parent is gone (crashed, killed, Ctrl-C): nobody will ever ask us to close.
  process.on('disconnect', () => void shutdown(0));
  if (spec.exitOnSigint) process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));

  spec
    .start((started) => {
      server = started;
    })
    .then((ready) => sendToParent({ type: 'ready', ...ready }))
    .catch((err: Error) => {
      sendToParent({ type: 'failed', error: err.stack ?? err.message });
      void shutdown(1);
    });
}
