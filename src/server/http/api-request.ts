/**
 * A request as the handler chain passes it from filter to filter. k8s.io/apiserver keeps what its
 * filters learn about a request in the request's context (endpoints/request: `WithRequestInfo`,
 * `WithUser`, `WithReceivedTimestamp`); here one object carries it, filled in as the chain goes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from './auth.js';
import type { ResourceRequest } from './request-info.js';

/** One request on its way down the chain (handler-chain.ts). */
export interface ApiRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** `/` and the decoded segments (request-info.ts `splitRequestTarget`: never `new URL()`). */
  readonly path: string;
  readonly segments: readonly string[];
  readonly query: URLSearchParams;
  /** When it arrived, by the server's clock; 0 unless someone records requests. */
  readonly received: number;
  /** Who sent it (with-authentication.ts); undefined on a server without authentication. */
  user?: UserInfo;
  /** The resource it addresses (with-request-info.ts); undefined for any other path. */
  info?: ResourceRequest;
}

/** An {@link ApiRequest} for a resource URL: past with-request-info.ts, its resource is known. */
export interface ResourceApiRequest extends ApiRequest {
  info: ResourceRequest;
}

/** What answers a request (or hands it on): the end of the chain, or a filter over it. */
export type Handler = (request: ApiRequest) => Promise<void>;

/** A step of the chain: handles the request itself, or hands it to `next`. */
export type Filter = (request: ApiRequest, next: Handler) => Promise<void>;

/** Whether `request` addresses a resource (request info found its kind). */
export function isResourceRequest(request: ApiRequest): request is ResourceApiRequest {
  return request.info !== undefined;
}
