/**
 * Waiting for the cluster to reach a state, on a watch: an informer over
 * the objects asked for, checked on its list and on every event after it.
 * Never a poll: the answer comes on the event that makes it true, and a
 * timeout names what was last seen.
 */
import type { KubeClient, Selection } from '../client/client.js';
import type { ResourceType } from '../client/watch/resources.js';
import type { KubeObject } from '../protocol/events.js';

/** Options of {@link TestCluster.waitFor}. */
export interface WaitForOptions<T extends KubeObject = KubeObject> {
  /** The namespace; a name without one means `default`, a predicate without one every namespace. */
  namespace?: string;
  /** Milliseconds before the wait fails (default 10,000). */
  timeout?: number;
  /** Wait until the object also satisfies this (e.g. a status condition). */
  until?: (object: T) => boolean;
  /** Gives up when aborted. */
  signal?: AbortSignal;
}

/** Options of {@link TestCluster.waitForDeletion}. */
export type WaitForDeletionOptions = Pick<WaitForOptions, 'namespace' | 'timeout' | 'signal'>;

/** What a wait is for: an object's name, or any object a predicate accepts. */
export type WaitTarget<T extends KubeObject> = string | ((object: T) => boolean);

/** A wait ran out of time (or was aborted); the message says what was last seen. */
export class WaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WaitTimeoutError';
  }
}

export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;

/** Resolves with the first object of `type` that matches `target` (and `until`). */
export async function waitForObject<T extends KubeObject>(
  client: KubeClient,
  type: string | ResourceType,
  target: WaitTarget<T>,
  opts: WaitForOptions<T> = {},
): Promise<T> {
  const t = await client.resolveType(type, opts.signal);
  const selection = selectionFor(t, target, opts.namespace);
  const matches = (o: T) => (typeof target === 'string' || target(o)) && (opts.until?.(o) ?? true);
  let last: T | undefined;
  let seen = 0;
  return withInformer<T, T>(client, t, selection, opts, (done) => ({
    add: (o) => {
      seen++;
      last = o;
      if (matches(o)) done(o);
    },
    update: (_, o) => {
      last = o;
      if (matches(o)) done(o);
    },
    delete: (o) => {
      if (last?.metadata?.uid === o.metadata?.uid) last = undefined;
    },
    timedOut: (ms) => {
      const what = describe(t, target, selection);
      if (typeof target !== 'string')
        return `timed out after ${ms} ms waiting for ${what}: ${seen} seen, none matched`;
      if (!last) return `timed out after ${ms} ms waiting for ${what}: not found`;
      return `timed out after ${ms} ms waiting for ${what} to satisfy the condition; last seen at resourceVersion ${last.metadata?.resourceVersion}: ${summary(last)}`;
    },
  }));
}

/** Resolves once the object named is gone (at once when it does not exist). */
export async function waitForDeletion(
  client: KubeClient,
  type: string | ResourceType,
  name: string,
  opts: WaitForDeletionOptions = {},
): Promise<void> {
  const t = await client.resolveType(type, opts.signal);
  const selection = selectionFor(t, name, opts.namespace);
  let last: KubeObject | undefined;
  await withInformer<KubeObject, undefined>(client, t, selection, opts, (done) => ({
    add: (o) => {
      last = o;
    },
    update: (_, o) => {
      last = o;
    },
    delete: () => done(undefined),
    synced: (size) => {
      if (size === 0) done(undefined);
    },
    timedOut: (ms) =>
      `timed out after ${ms} ms waiting for ${describe(t, name, selection)} to be deleted; last seen: ${last ? summary(last) : 'nothing'}`,
  }));
}

interface WaitHandlers<T extends KubeObject> {
  add(o: T): void;
  update(old: T, o: T): void;
  delete(o: T): void;
  synced?(size: number): void;
  timedOut(ms: number): string;
}

/** Runs an informer over `selection` until `done` is called, the time runs out or the signal aborts; always stops it. */
function withInformer<T extends KubeObject, R>(
  client: KubeClient,
  type: ResourceType,
  selection: Selection,
  opts: { timeout?: number; signal?: AbortSignal },
  handlers: (done: (result: R) => void) => WaitHandlers<T>,
): Promise<R> {
  const ms = opts.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  const informer = client.informer<T>(type, selection);
  return new Promise<R>((resolve, reject) => {
    let finished = false;
    const finish = (fn: () => void) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void informer.stop().then(fn, fn);
    };
    const h = handlers((result) => finish(() => resolve(result)));
    const timer = setTimeout(() => finish(() => reject(new WaitTimeoutError(h.timedOut(ms)))), ms);
    const onAbort = () => finish(() => reject(opts.signal?.reason ?? new Error('aborted')));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    informer.on({ add: (o) => h.add(o), update: (a, b) => h.update(a, b), delete: (o) => h.delete(o) });
    informer.synced().then(
      () => {
        if (!finished) h.synced?.(informer.size);
      },
      (err: unknown) => finish(() => reject(err)),
    );
  });
}

function selectionFor<T extends KubeObject>(
  t: ResourceType,
  target: WaitTarget<T>,
  namespace: string | undefined,
): Selection {
  const byName = typeof target === 'string' ? { fieldSelector: `metadata.name=${target}` } : {};
  if (!t.namespaced) return { ...byName, allNamespaces: true };
  if (namespace !== undefined) return { ...byName, namespace };
  return typeof target === 'string' ? { ...byName, namespace: 'default' } : { allNamespaces: true };
}

function describe<T extends KubeObject>(t: ResourceType, target: WaitTarget<T>, s: Selection): string {
  const resource = t.group ? `${t.plural}.${t.group}` : t.plural;
  const where = s.namespace ? `${s.namespace}/` : '';
  return typeof target === 'string'
    ? `${resource} ${where}${target}`
    : `any of ${resource}${s.namespace ? ` in ${s.namespace}` : ''}`;
}

/** The parts of an object a failed wait shows: its status, else the whole object, cut short. */
function summary(o: KubeObject): string {
  const status = (o as { status?: unknown }).status;
  // managedFields say who wrote what, which a failed wait rarely needs and which fill the line.
  const { managedFields: _, ...metadata } = o.metadata ?? {};
  const text = JSON.stringify(status === undefined ? { ...o, metadata } : { status });
  return text.length > 600 ? `${text.slice(0, 600)}...` : text;
}
