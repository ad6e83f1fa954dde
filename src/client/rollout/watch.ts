/**
 * Following one object's rollout until it is done, as `kubectl rollout
 * status` (watchtools.UntilWithSync): an informer over just that object
 * (field selector `metadata.name=NAME`), judged on every add and update, so
 * a dropped or expired watch resumes (from its last bookmark when it can)
 * without losing the object's latest state.
 */
import type { KubeObject } from '../../protocol/events.js';
import type { KubeClient } from '../client.js';
import type { InformerOptions } from '../informer/informer.js';
import type { ResourceType } from '../watch/resources.js';
import { statusViewerFor } from './index.js';
import { type RolloutStatus, RolloutStatusError } from './status.js';

/** The followed object was deleted: kubectl stops rather than follow a re-created one. */
export class RolloutDeletedError extends Error {
  constructor(message = 'object has been deleted') {
    super(message);
    this.name = 'RolloutDeletedError';
  }
}

/** The watch was aborted (a `--timeout`, Ctrl-C) before the rollout finished. */
export class RolloutAbortedError extends Error {
  constructor(reason: unknown) {
    super(reason instanceof Error ? reason.message : 'rollout watch aborted');
    this.name = 'RolloutAbortedError';
  }
}

/** Options of {@link watchRolloutStatus}. */
export interface WatchRolloutOptions {
  /** Pin a revision (`--revision`; Deployments only). */
  revision?: number;
  /** Keep watching until done (default true); false answers after the first status. */
  watch?: boolean;
  /** Every status judged, in order (kubectl prints each). */
  onStatus?: (status: RolloutStatus) => void;
  /** Ends the watch; the promise then rejects with {@link RolloutAbortedError}. */
  signal?: AbortSignal;
  /** Options of the informer (bookmarks, timing, logger, ...). */
  informer?: InformerOptions<KubeObject>;
}

/**
 * Watches `namespace/name` of `type` until its rollout is done (resolves
 * with the final status), fails ({@link RolloutStatusError}), is deleted
 * ({@link RolloutDeletedError}) or `signal` fires ({@link RolloutAbortedError}).
 * Throws at once for kinds without a status viewer.
 */
export async function watchRolloutStatus(
  kube: KubeClient,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  opts: WatchRolloutOptions = {},
): Promise<RolloutStatus> {
  const viewer = statusViewerFor(type.group, type.kind);
  if (!viewer) {
    const gk = type.group ? `${type.kind}.${type.group}` : type.kind;
    throw new RolloutStatusError(
      'UnsupportedStrategy',
      `no status viewer has been implemented for ${gk}`,
      true,
    );
  }
  const signal = opts.signal;
  if (signal?.aborted) throw new RolloutAbortedError(signal.reason);
  const informer = kube.informer<KubeObject>(
    type,
    { namespace, fieldSelector: `metadata.name=${name}` },
    { ...opts.informer, signal },
  );
  let settle!: { resolve: (s: RolloutStatus) => void; reject: (err: unknown) => void };
  const outcome = new Promise<RolloutStatus>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let finished = false;
  const finish = (fn: () => void) => {
    if (finished) return;
    finished = true;
    fn();
  };
  const judge = (object: KubeObject) => {
    if (finished) return;
    let status: RolloutStatus;
    try {
      status = viewer(object, opts.revision);
    } catch (err) {
      finish(() => settle.reject(err));
      return;
    }
    opts.onStatus?.(status);
    if (status.done || opts.watch === false) finish(() => settle.resolve(status));
  };
  informer.on({
    add: judge,
    update: (_old, object) => judge(object),
    delete: () => finish(() => settle.reject(new RolloutDeletedError())),
  });
  const onAbort = () => finish(() => settle.reject(new RolloutAbortedError(signal?.reason)));
  signal?.addEventListener('abort', onAbort, { once: true });
  informer.start();
  try {
    return await outcome;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await informer.stop();
  }
}
