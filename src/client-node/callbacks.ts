/**
 * The callbacks of a client-node informer, by verb, with client-node's
 * `on`/`off` rules (`change` stands for add, update and delete; an unknown
 * verb throws `Unknown verb: x`; each verb's callbacks run in the order
 * added, from a copy taken before the first runs).
 *
 * One deliberate difference: a callback that throws, or returns a promise
 * that rejects, never stops the informer. client-node drops what a watch
 * event's callback throws and lets a list's end the informer's start() with
 * it; here every such failure is counted and reported to the `error`
 * callbacks as an {@link InformerHandlerError}, and the stream goes on.
 */

/** The verbs of client-node's informer (`ADD`, `UPDATE`, ... in client-node). */
export const ADD = 'add';
export const UPDATE = 'update';
export const CHANGE = 'change';
export const DELETE = 'delete';
export const CONNECT = 'connect';
export const ERROR = 'error';

export type ObjectVerb = typeof ADD | typeof UPDATE | typeof DELETE;
type Verb = ObjectVerb | typeof CONNECT | typeof ERROR;

/** A callback given an object (add, update, delete, change). */
export type ObjectCallback<T> = (obj: T) => void;
/** A callback of `connect` (given undefined) or `error` (given the failure). */
// biome-ignore lint/suspicious/noExplicitAny: client-node's ErrorCallback takes `any`, and users' callbacks are typed against it.
export type ErrorCallback = (err?: any) => void;

/** What a callback threw (or its promise rejected with), as given to the `error` callbacks. */
export class InformerHandlerError extends Error {
  /** The verb whose callback failed. */
  readonly verb: string;

  constructor(verb: string, cause: unknown) {
    super(`watchmark/client-node: a ${verb} callback failed: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'InformerHandlerError';
    this.verb = verb;
  }
}

const VERBS: readonly Verb[] = [ADD, UPDATE, DELETE, CONNECT, ERROR];

/** See the file comment. */
export class Callbacks<T> {
  /** Callback failures so far (an `error` callback's own failures included). */
  failures = 0;
  private readonly byVerb = new Map<Verb, Array<(arg?: unknown) => void>>(VERBS.map((v) => [v, []]));

  on(verb: string, cb: (arg?: unknown) => void): void {
    if (verb === CHANGE) {
      for (const v of [ADD, UPDATE, DELETE] as const) this.on(v, cb);
      return;
    }
    this.listOf(verb).push(cb);
  }

  off(verb: string, cb: (arg?: unknown) => void): void {
    if (verb === CHANGE) {
      for (const v of [ADD, UPDATE, DELETE] as const) this.off(v, cb);
      return;
    }
    const list = this.listOf(verb);
    const at = list.indexOf(cb);
    if (at >= 0) list.splice(at, 1);
  }

  /** Calls the callbacks of an object verb with `object`. */
  object(verb: ObjectVerb, object: T): void {
    this.call(verb, object);
  }

  /** Calls the `connect` callbacks (with undefined, as client-node). */
  connect(): void {
    this.call(CONNECT, undefined);
  }

  /** Calls the `error` callbacks with `err`. */
  error(err: unknown): void {
    this.call(ERROR, err);
  }

  private listOf(verb: string): Array<(arg?: unknown) => void> {
    const list = this.byVerb.get(verb as Verb);
    if (!list) throw new Error(`Unknown verb: ${verb}`);
    return list;
  }

  private call(verb: Verb, arg: unknown): void {
    for (const cb of this.listOf(verb).slice()) {
      try {
        const result: unknown = cb(arg);
        if (isThenable(result)) result.then(undefined, (err: unknown) => this.failed(verb, err));
      } catch (err) {
        this.failed(verb, err);
      }
    }
  }

  private failed(verb: Verb, err: unknown): void {
    this.failures++;
    // An error callback's own failure is only counted: reporting it to itself could never end.
    if (verb !== ERROR) this.error(new InformerHandlerError(verb, err));
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
