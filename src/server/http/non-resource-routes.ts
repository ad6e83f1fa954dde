/**
 * Which part of kube-apiserver's handler chain answers a non-resource path,
 * and so how it answers what it cannot serve. kube-apiserver's director
 * (k8s.io/apiserver pkg/server/handler.go `director.ServeHTTP`) hands a path
 * to go-restful only when a registered web service's root path is a prefix of
 * it at a segment boundary (`/api`, `/api/v1`, `/apis/<group>/<version>`,
 * `/version`), and everything else to the non-go-restful mux (health checks,
 * `/apis`, `/apis/<group>`, `/openapi/*`, `/metrics`). The two differ:
 * - an unknown path under go-restful is a JSON 404 Status; anywhere else it
 *   is Go's `http.NotFound`, the text `404 page not found`;
 * - go-restful answers a method its route does not take with a 405 Status;
 *   the mux's handlers serve any method;
 * - a 406 from go-restful says `406: Not Acceptable\n\nAvailable
 *   representations: ...` with empty details; the mux's discovery handlers
 *   say `only the following media types are accepted: ...` without details.
 */

import type { ServerResponse } from 'node:http';
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { acceptsJson, PROTOBUF_CONTENT_TYPE, parseAccept } from './media-types.js';
import { routeNotFound } from './request-info.js';

/** The document formats a discovery path offers. */
const DISCOVERY_REPRESENTATIONS = ['application/json', 'application/yaml', PROTOBUF_CONTENT_TYPE];

/** Whether go-restful claims `path`, given the groups served (`''` the core group). */
export function claimedByGoRestful(path: string, servedGroups: ReadonlySet<string>): boolean {
  const parts = path.split('/').filter(Boolean);
  if (path === '/version' || path.startsWith('/version/')) return true;
  if (parts[0] === 'api') return true;
  // `/apis/<group>/<version>...`: the group-version's web service; `/apis` and
  // `/apis/<group>` themselves are the mux's discovery handlers.
  return parts[0] === 'apis' && parts.length >= 3 && servedGroups.has(parts[1]);
}

/**
 * The built-in groups served (`''` the core group), for routing decisions: only they have
 * go-restful web services. Custom resources are served by apiextensions-apiserver's handler
 * behind the mux, whose unknown paths are the mux's text 404.
 */
export function servedGroups(kinds: { all(): readonly ResourceKind[] }): Set<string> {
  return new Set(
    kinds
      .all()
      .filter((k) => !k.custom)
      .map((k) => k.group),
  );
}

/**
 * A path nothing serves: go-restful's JSON 404 under its web services (thrown, for the chain to
 * answer), else the mux's text 404, written here. Returns the bytes written.
 */
export function answerNotFound(res: ServerResponse, path: string, groups: ReadonlySet<string>): number {
  if (claimedByGoRestful(path, groups)) throw routeNotFound();
  return sendPlainNotFound(res);
}

/** Paths the mux serves whatever the method (its handlers do not look at it). */
export function servedForAnyMethod(path: string): boolean {
  if (/^\/(healthz|livez|readyz)(\/|$)/.test(path)) return true;
  if (path === '/metrics' || path === '/openapi/v2' || path.startsWith('/openapi/v3')) return true;
  const parts = path.split('/').filter(Boolean);
  return parts[0] === 'apis' && parts.length <= 2;
}

/** Go's `http.NotFound`, as the mux's NotFoundHandler writes it. */
export function sendPlainNotFound(res: ServerResponse): number {
  const body = '404 page not found\n';
  res.writeHead(404, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
  return Buffer.byteLength(body);
}

/** The representation of a discovery answer an Accept header asks for, or undefined when none is offered. */
export function negotiateDocument(
  accept: string | undefined,
  offers: 'discovery' | 'json-only',
): 'json' | 'yaml' | 'protobuf' | undefined {
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return 'json';
  for (const range of ranges) {
    // A transformation (`as=...`) this document cannot take is not this range.
    if (range.params.as !== undefined) continue;
    if (acceptsJson(range)) return 'json';
    if (offers === 'json-only') continue;
    if (range.type === 'application' && range.subtype === 'yaml') return 'yaml';
    if (`${range.type}/${range.subtype}` === PROTOBUF_CONTENT_TYPE) return 'protobuf';
  }
  return undefined;
}

/**
 * The 406 for a discovery path whose Accept names nothing it offers, worded
 * as the part of the chain that serves `path` words it.
 */
export function notAcceptable(path: string, servedGroups: ReadonlySet<string>): StatusError {
  const representations = path === '/version' ? ['application/json'] : DISCOVERY_REPRESENTATIONS;
  if (claimedByGoRestful(path, servedGroups)) {
    // go-restful's container.go: "406: Not Acceptable" and the route's produces list.
    return StatusError.of(
      'NotAcceptable',
      `406: Not Acceptable\n\nAvailable representations: ${representations.join(', ')}`,
      {},
    );
  }
  // apimachinery's negotiation.NewNotAcceptableError, through responsewriters.ErrorNegotiated.
  return StatusError.of(
    'NotAcceptable',
    `only the following media types are accepted: ${representations.join(', ')}`,
  );
}
