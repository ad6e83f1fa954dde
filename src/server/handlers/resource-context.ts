/**
 * What every resource handler shares: the server's side of a request (the context), the same for
 * every request; each request's own side is its scope (request-scope.ts).
 */
import type { Admission } from '../admission/admission.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import type { TokenAuthentication } from '../kinds/types.js';
import type { ServiceAccountTokenIssuer } from '../pki/service-account-token.js';
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
  /**
   * The server's bearer-token authenticators (static tokens, service-account tokens), as a
   * TokenReview runs them; set once the server authenticates. Undefined: no authentication.
   */
  authenticateToken?: (token: string, audiences: string[]) => Promise<TokenAuthentication>;
  /** The service-account token issuer (TokenRequest); undefined on a server that issues none. */
  tokenIssuer?: ServiceAccountTokenIssuer;
  /** The etcd store's probe, for ComponentStatus `etcd-0`; undefined over a store that is no etcd. */
  storageProbe?: () => Promise<void>;
}

/** The query parameters of a request. */
export type Query = URLSearchParams;
