/**
 * A list-watch source whose resource is known only once something async
 * (discovery) answers: `KubeClient.watcher('widgets')` must return a
 * watcher at once, yet a custom type's path needs the server's discovery.
 */
import type { KubeList } from '../../protocol/events.js';
import type { ListParams, ListWatchSource, WatchParams, WatchStream } from './listwatch.js';

/**
 * Resolves the real source on the first list or watch and keeps it. A
 * failed resolution (no such type) fails that request, so the watcher
 * reports it through `onError` and retries with its backoff: a type that
 * appears later (a CRD installed after the informer started) is picked up.
 */
export class DeferredListWatch implements ListWatchSource {
  private inner: ListWatchSource | undefined;
  private resolving: Promise<ListWatchSource> | undefined;
  private readonly resolve: (signal?: AbortSignal) => Promise<ListWatchSource>;
  private readonly name: string;

  /** `name` is what the user asked for, for messages until the source is known. */
  constructor(name: string, resolve: (signal?: AbortSignal) => Promise<ListWatchSource>) {
    this.name = name;
    this.resolve = resolve;
  }

  get bytesRead(): number {
    return this.inner?.bytesRead ?? 0;
  }

  get url(): string {
    return this.inner?.url ?? `(resource type ${JSON.stringify(this.name)}, not yet resolved)`;
  }

  async list(params: ListParams): Promise<KubeList> {
    return (await this.source(params.signal)).list(params);
  }

  async watch(params: WatchParams): Promise<WatchStream> {
    return (await this.source(params.signal)).watch(params);
  }

  private async source(signal?: AbortSignal): Promise<ListWatchSource> {
    if (this.inner) return this.inner;
    this.resolving ??= this.resolve(signal).finally(() => {
      this.resolving = undefined;
    });
    this.inner = await this.resolving;
    return this.inner;
  }
}
