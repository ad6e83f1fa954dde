/**
 * A durable informer checkpoint: resume across process restarts.
 *
 * A {@link Checkpoint} mirrors the cache a watcher's events build (the same
 * events, in the order they are applied, so its objects and resourceVersion
 * always agree), writes it to a file at most every `intervalMs` and on a
 * clean stop, and on start loads it back as the watcher's initial state, so
 * the watch resumes from the saved resourceVersion instead of listing. If
 * the server no longer has that resourceVersion, the watch gets 410 and
 * relists with client-go's rules: correctness never depends on the file.
 *
 * A checkpoint is used only against the storage that issued its
 * resourceVersion: same server URLs, same cluster uid (`kube-system`'s
 * metadata.uid: a restarted in-memory server, or another cluster behind the
 * same URL, has a new one), same resource, namespace and selectors; and only
 * when younger than `maxAgeMs`. Anything else, or a damaged file, is a
 * warning and a normal list.
 */
import { type Clock, systemClock, type TimerHandle } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { cacheMeta } from '../watch/lazy-decode.js';
import type { InitialState, Logger, WatcherEvent } from '../watch/watcher-types.js';
import {
  type CheckpointIdentity,
  readCheckpointFile,
  removeStaleTemporaries,
  writeCheckpointFile,
} from './checkpoint-file.js';

/** Options of a {@link Checkpoint}. */
export interface CheckpointOptions {
  /**
   * The checkpoint file (its directory must exist), or how to find it out before the first load:
   * a shared informer on a type known by name only names its file after the type the name
   * resolves to, so `wg`, `widgets` and `widgets.example.com` share one file.
   */
  path: string | ((signal?: AbortSignal) => Promise<string>);
  /**
   * Which server, cluster and selection the cache belongs to, or how to find
   * out (KubeClient and the shared informer factory fill this in: see
   * `checkpointIdentity`). Without it nothing is loaded or written.
   */
  identity?: CheckpointIdentity | ((signal?: AbortSignal) => Promise<CheckpointIdentity>);
  /**
   * At most one write per this many ms (default 10 s), and never sooner than
   * 10 times the last write took (a large cache's writes stay under a tenth
   * of the time); a clean stop writes too.
   */
  intervalMs?: number;
  /** A checkpoint older than this is ignored (default 15 min): its resourceVersion is surely compacted away. */
  maxAgeMs?: number;
  /** Load objects lazily (as the watcher's `lazyDecode`). */
  lazyDecode?: boolean;
  logger?: Logger;
  clock?: Clock;
}

/** What a checkpoint did: at start, and its writes since. */
export interface CheckpointStatus {
  /** The start used the checkpoint (it loaded and matched). */
  resumed: boolean;
  /** Why it was not used (undefined when it was); `no checkpoint file` on a first start. */
  ignored?: string;
  /** Objects and resourceVersion loaded, and the checkpoint's age at start. */
  loadedObjects: number;
  loadedResourceVersion: string;
  ageMs: number;
  /**
   * Events received after the loaded state until the first bookmark or
   * relist: the catch-up on what the process missed while down (plus any
   * live event that came before that first bookmark).
   */
  replayedEvents: number;
  /** Lists (initial or relists) since start: 0 when the checkpoint saved them all. */
  lists: number;
  /** Checkpoints written, failed writes, and the last write's size and time. */
  writes: number;
  writeErrors: number;
  lastWriteBytes: number;
  lastWriteMs: number;
}

const DEFAULT_INTERVAL_MS = 10_000;
const DEFAULT_MAX_AGE_MS = 15 * 60_000;

/** `namespace/name`, or `name`: the informer's key. */
function keyOf(object: KubeObject): string {
  const m = cacheMeta(object) ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
}

/**
 * The checkpoint of one watcher's cache. Pass {@link Checkpoint.load} as the
 * watcher's `initialState`, feed every event to {@link Checkpoint.track} in
 * the order it is applied, and {@link Checkpoint.close} on stop.
 */
export class Checkpoint<T extends KubeObject = KubeObject> {
  readonly status: CheckpointStatus = {
    resumed: false,
    loadedObjects: 0,
    loadedResourceVersion: '',
    ageMs: 0,
    replayedEvents: 0,
    lists: 0,
    writes: 0,
    writeErrors: 0,
    lastWriteBytes: 0,
    lastWriteMs: 0,
  };
  private readonly opts: CheckpointOptions;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private identity: CheckpointIdentity | undefined;
  private objects = new Map<string, T>();
  private pending: Map<string, T> | undefined;
  private resourceVersion = '';
  /** Holds a listed (or loaded) state: nothing is written before. */
  private synced = false;
  private dirty = false;
  /** Counting the catch-up after a loaded state. */
  private replaying = false;
  private timer: TimerHandle | undefined;
  private writing: Promise<void> | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastWriteTookMs = 0;
  private closed = false;
  private resolvedPath: string | undefined;

  constructor(opts: CheckpointOptions) {
    this.opts = opts;
    this.clock = opts.clock ?? systemClock;
    this.intervalMs = opts.intervalMs ?? DEFAULT_INTERVAL_MS;
  }

  /** The file; undefined while a path given as a function is not known yet. */
  get path(): string | undefined {
    return this.resolvedPath ?? (typeof this.opts.path === 'string' ? this.opts.path : undefined);
  }

  private async filePath(signal?: AbortSignal): Promise<string> {
    const given = this.opts.path;
    this.resolvedPath ??= typeof given === 'string' ? given : await given(signal);
    return this.resolvedPath;
  }

  /**
   * Loads and verifies the checkpoint: the watcher's `initialState`. Resolves
   * undefined (and says why, as a warning unless the file is simply absent)
   * when it cannot be used; never rejects.
   */
  readonly load = async (signal?: AbortSignal): Promise<InitialState<T> | undefined> => {
    try {
      const path = await this.filePath(signal);
      await removeStaleTemporaries(path);
      if (!this.opts.identity)
        return this.ignore('no identity given (checkpoint.identity; KubeClient fills it in)');
      const identity = await this.resolveIdentity(signal);
      if (!identity) return this.ignore('the server identity is unknown');
      const loaded = await readCheckpointFile(path, this.opts.lazyDecode);
      const mismatch = identityMismatch(loaded.header.identity, identity);
      if (mismatch) return this.ignore(`it belongs to ${mismatch}`);
      const ageMs = this.clock.now() - loaded.header.savedAt;
      const maxAgeMs = this.opts.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
      if (!(ageMs <= maxAgeMs))
        return this.ignore(
          `it is ${Math.round(ageMs / 1000)} s old (limit ${Math.round(maxAgeMs / 1000)} s)`,
        );
      if (!loaded.header.resourceVersion) return this.ignore('it has no resourceVersion');
      Object.assign(this.status, {
        resumed: true,
        ignored: undefined,
        loadedObjects: loaded.objects.length,
        loadedResourceVersion: loaded.header.resourceVersion,
        ageMs,
      });
      this.opts.logger?.info?.(
        { path, objects: loaded.objects.length, resourceVersion: loaded.header.resourceVersion, ageMs },
        'resuming from checkpoint',
      );
      return { resourceVersion: loaded.header.resourceVersion, objects: loaded.objects as T[] };
    } catch (err) {
      const e = err as Error & { missing?: boolean };
      return this.ignore(e.missing ? 'no checkpoint file' : e.message, !e.missing);
    }
  };

  private ignore(reason: string, warn = true): undefined {
    this.status.ignored = reason;
    if (warn)
      this.opts.logger?.warn?.({ path: this.path, reason }, `checkpoint ignored (${reason}): listing`);
    return undefined;
  }

  private async resolveIdentity(signal?: AbortSignal): Promise<CheckpointIdentity | undefined> {
    if (this.identity) return this.identity;
    const given = this.opts.identity;
    if (!given) return undefined;
    try {
      this.identity = typeof given === 'function' ? await given(signal) : given;
    } catch (err) {
      this.opts.logger?.warn?.(
        { path: this.path, err: (err as Error).message },
        'cannot learn the cluster identity for the checkpoint',
      );
    }
    return this.identity;
  }

  /** Applies one watcher event to the mirrored cache (call in the order events are applied). */
  track(e: WatcherEvent<T>): void {
    switch (e.type) {
      case 'init':
        this.pending = new Map();
        if (e.cause !== 'checkpoint') {
          this.status.lists++;
          this.replaying = false;
        }
        return;
      case 'initApply':
        this.pending ??= new Map();
        this.pending.set(keyOf(e.object), e.object);
        return;
      case 'initDone': {
        const fromCheckpoint = this.status.resumed && !this.synced;
        this.objects = this.pending ?? new Map();
        this.pending = undefined;
        this.synced = true;
        this.replaying = fromCheckpoint;
        // A loaded state is already on disk: write again only once something changes.
        if (fromCheckpoint) this.resourceVersion = e.resourceVersion;
        else this.changed(e.resourceVersion);
        return;
      }
      case 'apply':
        this.objects.set(keyOf(e.object), e.object);
        if (this.replaying) this.status.replayedEvents++;
        this.changed(cacheMeta(e.object)?.resourceVersion);
        return;
      case 'delete':
        this.objects.delete(keyOf(e.object));
        if (this.replaying) this.status.replayedEvents++;
        this.changed(cacheMeta(e.object)?.resourceVersion);
        return;
      case 'bookmark':
        this.replaying = false;
        // Bookmarks keep the saved resourceVersion inside the server's history window.
        this.changed(e.resourceVersion);
        return;
    }
  }

  private changed(resourceVersion: string | undefined): void {
    if (resourceVersion) this.resourceVersion = resourceVersion;
    if (!this.synced || this.closed) return;
    this.dirty = true;
    this.schedule();
  }

  /** One timer at a time, never two writes at once, at most one write per interval. */
  private schedule(): void {
    if (this.timer || this.writing || this.closed) return;
    const gap = Math.max(this.intervalMs, 10 * this.lastWriteTookMs);
    const wait = Math.max(0, this.lastWriteAt + gap - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.writeNow();
    }, wait);
  }

  /** Takes the snapshot (a copy of the Map's values: cheap) and writes it in the background. */
  private writeNow(): Promise<void> | undefined {
    if (!this.dirty || this.writing) return this.writing;
    this.dirty = false;
    this.lastWriteAt = this.clock.now();
    const snapshot = { resourceVersion: this.resourceVersion, objects: [...this.objects.values()] };
    this.writing = this.write(snapshot).finally(() => {
      this.writing = undefined;
      if (this.dirty && !this.closed) this.schedule();
    });
    return this.writing;
  }

  private async write(snapshot: { resourceVersion: string; objects: T[] }): Promise<void> {
    try {
      const identity = await this.resolveIdentity();
      if (!identity) {
        this.status.writeErrors++;
        return;
      }
      const r = await writeCheckpointFile(
        await this.filePath(),
        { savedAt: this.clock.now(), identity, resourceVersion: snapshot.resourceVersion },
        snapshot.objects,
      );
      this.status.writes++;
      this.status.lastWriteBytes = r.bytes;
      this.status.lastWriteMs = Math.round(r.ms * 10) / 10;
      this.lastWriteTookMs = r.ms;
    } catch (err) {
      // A full disk must not stop the informer: the next write tries again.
      this.status.writeErrors++;
      this.opts.logger?.warn?.({ path: this.path, err: (err as Error).message }, 'checkpoint write failed');
    }
  }

  /** Writes now if anything changed since the last write; resolves when no write is in flight. */
  async flush(): Promise<void> {
    for (;;) {
      this.timer?.cancel();
      this.timer = undefined;
      if (this.writing) await this.writing;
      else if (this.dirty) await this.writeNow();
      else return;
    }
  }

  /** Stops writing after a final {@link Checkpoint.flush} (a clean stop saves the latest state). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flush();
  }
}

/** What differs between a checkpoint's identity and the running one, as words; undefined when none. */
export function identityMismatch(saved: CheckpointIdentity, now: CheckpointIdentity): string | undefined {
  if (!saved || typeof saved !== 'object') return 'no identity';
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(saved.servers, now.servers))
    return `another server (${(saved.servers ?? []).join(',')}, not ${now.servers.join(',')})`;
  if (saved.clusterUid !== now.clusterUid)
    return `another cluster (kube-system uid ${saved.clusterUid}, not ${now.clusterUid}): a restarted or different server`;
  for (const field of ['resource', 'namespace', 'labelSelector', 'fieldSelector'] as const)
    if (saved[field] !== now[field])
      return `another ${field} (${JSON.stringify(saved[field])}, not ${JSON.stringify(now[field])})`;
  return undefined;
}
