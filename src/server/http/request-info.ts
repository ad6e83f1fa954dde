/**
 * What a request URL addresses, read the way kube-apiserver reads it: the raw
 * path is split into segments once and never normalized as a URL. Dot
 * segments are not resolved and empty segments are not dropped, so a request
 * can only ever act on the object its path names; `.`, `..` and names holding
 * `/` or `%` are refused with 400 before anything is looked up.
 */
import { StatusError } from '../../protocol/status.js';
import type { ResourceKind } from '../kinds/types.js';
import { isPathSegmentName } from '../kinds/validation-names.js';

/** What a resource URL addresses. */
export interface ResourceRequest {
  kind: ResourceKind;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The legacy `/watch/` path form (`/api/v1/watch/namespaces/ns/pods`). */
  watchPath: boolean;
}

/** Finds a kind by group, version and plural. */
export type KindLookup = (group: string, version: string, plural: string) => ResourceKind | undefined;

/** A request target split into its path segments and its query. */
export interface RequestTarget {
  /** The path's segments, split after percent-decoding (as Go splits URL.Path). */
  segments: string[];
  /** `/` + the segments: what non-resource routes (health, discovery, the UI) match exactly. */
  path: string;
  query: URLSearchParams;
}

/**
 * What the router answers for a path no route matches, and for a method a route does not take:
 * kube-apiserver's go-restful container hands both to the server's `serviceErrorHandler`
 * (k8s.io/apiserver pkg/server/handler.go), which writes `NewGenericServerResponse(code, ...)`:
 * the generic message, empty details, no resource named.
 */
export function routeNotFound(): StatusError {
  return StatusError.of('NotFound', 'the server could not find the requested resource', {});
}

/** Whether `err` is {@link routeNotFound}'s answer (the router found no route), not an object's 404. */
export function isRouteNotFound(err: unknown): boolean {
  return (
    err instanceof StatusError &&
    err.status.code === 404 &&
    err.status.message === 'the server could not find the requested resource'
  );
}

/** The router's 405 (see {@link routeNotFound}). */
export function routeMethodNotAllowed(): StatusError {
  return StatusError.of(
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

/**
 * Splits a request target (`req.url`, origin form) into decoded segments and
 * the query.
 *
 * kube-apiserver's request-info (k8s.io/apiserver/pkg/endpoints/request/
 * requestinfo.go, `splitPath`) trims every leading and trailing `/` and splits
 * the rest on `/`: a trailing slash therefore addresses the same thing as none
 * (`.../configmaps/` is the collection), an empty segment inside the path stays
 * an empty segment (go-restful's CurlyRouter then binds it to a `{name}`
 * parameter as ""), and dot segments stay literal segments, which the storage
 * layer refuses as names. Percent-encoding is decoded per segment after the
 * split, so `%2F` inside a name is a name containing `/` (refused below), never
 * a separator, and `%2e%2e` is the name `..`, never a step up.
 */
export function splitRequestTarget(target: string): RequestTarget {
  const q = target.indexOf('?');
  const rawPath = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  // Go's server routes on the decoded URL.Path, so an encoded `/` (%2F) splits a segment there
  // as a plain one would (requestinfo.go splits req.URL.Path).
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw StatusError.of('BadRequest', `malformed path: ${JSON.stringify(rawPath.slice(0, 200))}`);
  }
  const trimmed = decoded.replace(/^\/+|\/+$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  return { segments, path: `/${segments.join('/')}`, query };
}

/**
 * The name of a path, checked as the generic registry's key functions check it
 * before touching storage (k8s.io/apiserver/pkg/registry/generic/registry/
 * store.go, `NamespaceKeyFunc` and `NoNamespaceKeyFunc`): an empty name is
 * handlers/namer.go's `errEmptyName`, an invalid one "Name parameter invalid".
 */
function checkName(name: string): void {
  checkSegment('Name', name, 'name must be provided');
}

/**
 * The namespace of a path. kube-apiserver checks no namespace segment at the
 * door: an empty one fails `NamespaceKeyFunc` ("Namespace parameter
 * required."), and `.` or `..` reach etcd3's `prepareKey`, which refuses a key
 * holding them ("invalid key", a 500). Here every namespace segment gets the
 * name check up front, as a 400 in the key function's words, so no verb (reads
 * included, which otherwise could list across namespaces) acts on it.
 */
function checkNamespace(namespace: string): void {
  checkSegment('Namespace', namespace, 'Namespace parameter required.');
}

function checkSegment(what: 'Name' | 'Namespace', value: string, whenEmpty: string): void {
  if (value === '') throw StatusError.of('BadRequest', whenEmpty);
  const errors = isPathSegmentName(value);
  if (errors.length > 0) {
    throw StatusError.of(
      'BadRequest',
      `${what} parameter invalid: ${JSON.stringify(value)}: ${errors.join(';')}`,
    );
  }
}

/**
 * The subresources of a Namespace (requestinfo.go's `namespaceSubresources`):
 * `namespaces/NAME/status` is the Namespace's status, not a kind named
 * `status` inside namespace NAME; `finalize` is where its spec.finalizers
 * change.
 */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Parses the segments of `/api/v1/...` and `/apis/GROUP/VERSION/...` resource
 * paths: `[watch/][namespaces/NS/]PLURAL[/NAME[/SUBRESOURCE]]`, where
 * `namespaces/NS[/status|/finalize]` is the Namespace object itself, following
 * requestinfo.go's `NewRequestInfo`. Returns undefined for non-resource paths;
 * throws a 400 for an invalid name or namespace and a 404 for an unknown
 * resource.
 */
export function parseResourcePath(
  segments: readonly string[],
  lookup: KindLookup,
): ResourceRequest | undefined {
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 3) {
    group = '';
    version = segments[1];
    rest = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    group = segments[1];
    version = segments[2];
    rest = segments.slice(3);
  } else {
    return undefined;
  }
  let watchPath = false;
  if (rest[0] === 'watch') {
    // requestinfo.go: a special verb needs something after it.
    if (rest.length < 2) throw routeNotFound();
    watchPath = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    if (rest.length === 2 || NAMESPACE_SUBRESOURCES.has(rest[2])) {
      // The Namespace object itself: /api/v1/namespaces/NAME[/status|/finalize].
      if (rest.length > 3) throw routeNotFound();
      const kind = lookup(group, version, 'namespaces');
      if (!kind) throw routeNotFound();
      checkName(rest[1]);
      const sub = rest[2];
      if (sub !== undefined && watchPath) throw routeNotFound();
      return { kind, name: rest[1], subresource: sub, watchPath };
    }
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  // A proxy subresource passes the rest of the path on (ProxyREST's `path` option).
  if (plural === undefined || (extra.length > 0 && subresource !== 'proxy')) throw routeNotFound();
  const kind = lookup(group, version, plural);
  if (!kind) throw routeNotFound();
  if (!kind.namespaced && namespace !== undefined) throw routeNotFound();
  if (subresource !== undefined && !kind.subresources.includes(subresource)) {
    // A custom resource's crdHandler answers a subresource its version does not have with the
    // object's NotFound (customresource_handler.go `ServeHTTP`, its default case).
    if (kind.custom && name !== undefined) {
      throw StatusError.of('NotFound', `${plural}.${group} ${JSON.stringify(name)} not found`, {
        name,
        group,
        kind: plural,
      });
    }
    throw routeNotFound();
  }
  // The route exists: now the names it carries, before any verb runs.
  if (namespace !== undefined) checkNamespace(namespace);
  if (name !== undefined) checkName(name);
  return { kind, namespace, name, subresource, watchPath };
}
