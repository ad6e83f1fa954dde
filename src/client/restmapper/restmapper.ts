/**
 * The client's RESTMapper: a resource type name (or an apiVersion and kind)
 * to the {@link ResourceType} the server serves, over discovery, as
 * client-go's `DeferredDiscoveryRESTMapper` (restmapper/discovery.go)
 * wrapped in its shortcut expander (restmapper/shortcut.go), which is what
 * kubectl resolves names with. Built-in types answer from the table with no
 * request; anything else reads discovery once and keeps it, and a name the
 * kept snapshot does not know reads discovery again once before failing
 * (client-go resets the deferred mapper and retries on a miss), so a
 * CustomResourceDefinition created after the snapshot resolves.
 */
import type { Transport } from '../http/transport.js';
import { builtinByKind, findBuiltin, type ResourceType } from '../watch/resources.js';
import { type DiscoverySnapshot, discoverResources } from './discovery-documents.js';
import { indexGroups, type MatchIndex, matchCategory, matchKind, matchName } from './name-match.js';

export { AmbiguousResourceError } from './name-match.js';

/** No served resource has this name: kubectl's `the server doesn't have a resource type "x"`. */
export class NoResourceTypeError extends Error {
  /** The name as kubectl quotes it: the part before the first dot. */
  readonly resource: string;

  constructor(resource: string) {
    super(`the server doesn't have a resource type ${JSON.stringify(resource)}`);
    this.name = 'NoResourceTypeError';
    this.resource = resource;
  }
}

/** No served resource has this kind at this apiVersion: apimachinery's NoKindMatchError text. */
export class NoKindMatchError extends Error {
  readonly apiVersion: string;
  readonly kind: string;

  constructor(apiVersion: string, kind: string) {
    super(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
    this.name = 'NoKindMatchError';
    this.apiVersion = apiVersion;
    this.kind = kind;
  }
}

/** Options of {@link RESTMapper}. */
export interface RESTMapperOptions {
  /** Called with kubectl's warnings (a short name two groups use); kubectl prints them as `Warning: ...`. */
  onWarning?: (message: string) => void;
}

interface Loaded {
  snapshot: DiscoverySnapshot;
  index: MatchIndex;
}

/**
 * Resolves resource type names over the server's discovery, cached per
 * client (see the file comment for the rules). `KubeClient.mapper` is one.
 */
export class RESTMapper {
  /** Discovery reads so far (each is 2 requests aggregated, or 2 + one per group version legacy). */
  discoveryReads = 0;
  /** Where kubectl's warnings go (see {@link RESTMapperOptions.onWarning}); may be set any time. */
  onWarning: ((message: string) => void) | undefined;
  private readonly transport: Transport;
  private loaded: Loaded | undefined;
  private loading: Flight | undefined;

  constructor(transport: Transport, opts: RESTMapperOptions = {}) {
    this.transport = transport;
    this.onWarning = opts.onWarning;
  }

  /** How the kept snapshot was read (`aggregated` or `legacy`); undefined before the first read. */
  get discoverySource(): DiscoverySnapshot['source'] | undefined {
    return this.loaded?.snapshot.source;
  }

  /**
   * The type `name` means, without any request: a built-in name, or one the
   * kept snapshot knows; undefined otherwise (then use {@link resourceFor}).
   */
  cached(name: string): ResourceType | undefined {
    const builtin = findBuiltin(name);
    if (builtin) return builtin;
    if (!this.loaded) return undefined;
    try {
      const m = matchName(this.loaded.index, name);
      return 'type' in m ? m.type : undefined;
    } catch {
      // Ambiguous: resourceFor says so.
      return undefined;
    }
  }

  /**
   * The type a kubectl-style name means (`widgets`, `widget`, `wg`,
   * `Widget`, `widgets.example.com`, `widgets.v1.example.com`,
   * `Widget.v1.example.com`). Throws {@link NoResourceTypeError} when the
   * server serves no such type (after reading discovery afresh once).
   */
  async resourceFor(name: string, signal?: AbortSignal): Promise<ResourceType> {
    const builtin = findBuiltin(name);
    if (builtin) return builtin;
    const found = await this.withRefresh(signal, (index) => {
      const m = matchName(index, name, this.onWarning);
      return 'type' in m ? m.type : undefined;
    });
    if (found) return found;
    const dot = name.indexOf('.');
    throw new NoResourceTypeError(dot < 0 ? name : name.slice(0, dot));
  }

  /**
   * The type serving `kind` at exactly `apiVersion` (what `apply` needs for
   * a manifest). Throws {@link NoKindMatchError} after reading discovery
   * afresh once.
   */
  async kindFor(apiVersion: string, kind: string, signal?: AbortSignal): Promise<ResourceType> {
    const builtin = builtinByKind(apiVersion, kind);
    if (builtin) return builtin;
    const found = await this.withRefresh(signal, (index) => matchKind(index, apiVersion, kind));
    if (found) return found;
    throw new NoKindMatchError(apiVersion, kind);
  }

  /** Every type in a category (`all`), at its group's preferred version, in discovery's order. */
  async category(name: string, signal?: AbortSignal): Promise<ResourceType[]> {
    const found = await this.withRefresh(signal, (index) => {
      const types = matchCategory(index, name);
      return types.length > 0 ? types : undefined;
    });
    return found ?? [];
  }

  /** Forgets the kept snapshot: the next lookup reads discovery again. */
  reset(): void {
    this.loaded = undefined;
  }

  /**
   * Runs `lookup` over the kept snapshot; on a miss reads discovery again
   * and runs it once more, unless the snapshot was read for this very call
   * (client-go's `!d.cl.Fresh()` check: a fresh read is not retried).
   */
  private async withRefresh<R>(
    signal: AbortSignal | undefined,
    lookup: (index: MatchIndex) => R | undefined,
  ): Promise<R | undefined> {
    const kept = this.loaded;
    const first = kept ?? (await this.load(signal));
    const found = lookup(first.index);
    if (found !== undefined || !kept) return found;
    // Another caller may have refreshed meanwhile; a newer snapshot counts as fresh.
    const fresh = this.loaded && this.loaded !== kept ? this.loaded : await this.load(signal, kept);
    return lookup(fresh.index);
  }

  /**
   * Reads discovery once for every caller waiting (single flight); `stale`
   * is replaced, not reused. Each caller waits under its own signal; when
   * every caller has given up (a watcher's per-request deadline, a stop),
   * the read itself is abandoned, so the next caller starts a fresh one
   * instead of waiting on a request lost with a dead connection.
   */
  private load(signal: AbortSignal | undefined, stale?: Loaded): Promise<Loaded> {
    if (this.loaded && this.loaded !== stale) return Promise.resolve(this.loaded);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const flight = this.loading ?? this.startLoad();
    flight.waiters++;
    return new Promise<Loaded>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        flight.waiters--;
        fn();
      };
      const onAbort = () =>
        settle(() => {
          if (flight.waiters === 0 && this.loading === flight) {
            this.loading = undefined;
            flight.abort.abort(new Error('discovery read abandoned: no caller waits for it'));
          }
          reject(signal?.reason);
        });
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (loaded) => settle(() => resolve(loaded)),
        (err: unknown) => settle(() => reject(err)),
      );
    });
  }

  private startLoad(): Flight {
    const abort = new AbortController();
    const flight: Flight = { abort, waiters: 0, promise: Promise.resolve(undefined as unknown as Loaded) };
    flight.promise = (async () => {
      try {
        this.discoveryReads++;
        const snapshot = await discoverResources(this.transport, abort.signal);
        const loaded = { snapshot, index: indexGroups(snapshot.groups) };
        this.loaded = loaded;
        return loaded;
      } finally {
        if (this.loading === flight) this.loading = undefined;
      }
    })();
    // Waiters see the failure; an abandoned read's own rejection is nobody's.
    flight.promise.catch(() => undefined);
    this.loading = flight;
    return flight;
  }
}

/** One discovery read in flight, and how many callers wait for it. */
interface Flight {
  promise: Promise<Loaded>;
  abort: AbortController;
  waiters: number;
}
