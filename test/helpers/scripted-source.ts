import type {
  ListParams,
  ListWatchSource,
  WatchParams,
  WatchStream,
} from '../../src/client/watch/listwatch.js';
import type { KubeList, KubeObject, WatchEvent } from '../../src/protocol/events.js';
import { failureStatus, StatusError } from '../../src/protocol/status.js';

/** A watch stream the test feeds by hand. */
export class ScriptedStream implements WatchStream {
  closed = false;
  private queue: Array<WatchEvent | 'end' | Error> = [];
  private waiter: (() => void) | undefined;

  /** Queues events (or 'end' for a clean close, an Error for a cut stream). */
  push(...items: Array<WatchEvent | 'end' | Error>): this {
    this.queue.push(...items);
    this.waiter?.();
    return this;
  }

  async next(): Promise<WatchEvent | undefined> {
    for (;;) {
      if (this.closed) return undefined;
      const item = this.queue.shift();
      if (item === 'end') return undefined;
      if (item instanceof Error) throw item;
      if (item) return item;
      await new Promise<void>((r) => {
        this.waiter = r;
      });
      this.waiter = undefined;
    }
  }

  close(): void {
    this.closed = true;
    this.waiter?.();
  }
}

type ListAnswer = KubeList | Error;
type WatchAnswer = ScriptedStream | Error;

/** One recorded call. */
export type Call = { op: 'list'; params: ListParams } | { op: 'watch'; params: WatchParams };

/**
 * A ListWatchSource driven by a script: each list/watch call takes the next
 * answer queued for its kind (a value, or an Error to throw). Calls are
 * recorded so tests can assert the exact parameters of every request.
 */
export class ScriptedSource implements ListWatchSource {
  bytesRead = 0;
  readonly calls: Call[] = [];
  private lists: ListAnswer[] = [];
  private watches: WatchAnswer[] = [];
  private waiters: Array<() => void> = [];

  onList(...answers: ListAnswer[]): this {
    this.lists.push(...answers);
    this.wake();
    return this;
  }

  onWatch(...answers: WatchAnswer[]): this {
    this.watches.push(...answers);
    this.wake();
    return this;
  }

  async list(params: ListParams): Promise<KubeList> {
    const { signal, ...rest } = params;
    this.calls.push({ op: 'list', params: rest });
    const answer = await this.take(this.lists, signal);
    if (answer instanceof Error) throw answer;
    return answer;
  }

  async watch(params: WatchParams): Promise<WatchStream> {
    const { signal, ...rest } = params;
    this.calls.push({ op: 'watch', params: rest as WatchParams });
    const answer = await this.take(this.watches, signal);
    if (answer instanceof Error) throw answer;
    return answer;
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async take<A>(queue: A[], signal?: AbortSignal): Promise<A> {
    for (;;) {
      const a = queue.shift();
      if (a !== undefined) return a;
      // As a real source: the abort's reason (the watcher's deadline error, or its stop).
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      await new Promise<void>((r) => {
        this.waiters.push(r);
        signal?.addEventListener('abort', () => r(), { once: true });
      });
    }
  }
}

/** A minimal object with a resourceVersion. */
export function obj(name: string, rv: string, namespace = 'ns'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, resourceVersion: rv } };
}

/** A list answer. */
export function listOf(rv: string, items: KubeObject[], cont?: string): KubeList {
  return { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: rv, continue: cont }, items };
}

/** Watch events. */
export const ev = {
  added: (o: KubeObject): WatchEvent => ({ type: 'ADDED', object: o }),
  modified: (o: KubeObject): WatchEvent => ({ type: 'MODIFIED', object: o }),
  deleted: (o: KubeObject): WatchEvent => ({ type: 'DELETED', object: o }),
  bookmark: (rv: string, end = false): WatchEvent => ({
    type: 'BOOKMARK',
    object: {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        resourceVersion: rv,
        ...(end ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
      },
    },
  }),
  error: (code: number, reason: string, message = reason): WatchEvent => ({
    type: 'ERROR',
    object: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason,
      message,
      code,
    } as never,
  }),
};

/** A server's answers to a resourceVersion it cannot serve: 410 Expired, and 504 "too large" (Retry-After 1 s). */
export const refusal = {
  expired: (message = 'too old resource version: 1 (5)') =>
    StatusError.of('Expired', message, undefined, 410),
  tooLarge: () =>
    new StatusError(
      failureStatus(
        'Timeout',
        'Timeout: Too large resource version: 9, current: 5',
        {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
        504,
      ),
    ),
};

/** Lets pending promise chains run (a few macrotask turns). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}
