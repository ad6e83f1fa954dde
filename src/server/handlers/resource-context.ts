/**
 * What every resource handler shares: the server's side of a request (the context), the same for
 * every request; each request's own side is its scope (request-scope.ts).
 */
import type { Admission } from '../admission/admission.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import type { ListContext } from './list.js';
import type { WatchContext } from './watch.js';

/** Everything a resource request needs from the server. */
export interface ResourceContext extends ListContext, WatchContext {
  objects: ObjectStorage;
  /** The kinds this server serves now. */
  kinds: KindTable;
  /** Counts bytes of non-watch answers. */
  countBytes(bytes: number): void;
  /**
   * False turns off the typed-object check of writes (schema/): only the write benchmark sets
   * it, to measure what the check costs. Unset means on.
   */
  typeCheck?: boolean;
  /** Admission hooks and webhooks (admission/); writes skip it while none is configured. */
  admission?: Admission;
}

/** The query parameters of a request. */
export type Query = URLSearchParams;
