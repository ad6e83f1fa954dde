import { StatusError } from '../protocol/status.js';
import type { ResourceKind } from './kinds/types.js';

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

function notFoundResource(): StatusError {
  return StatusError.of('NotFound', 'the server could not find the requested resource', {});
}

const SEGMENT = /^[^/]+$/;

/**
 * Parses `/api/v1/...` and `/apis/GROUP/VERSION/...` resource paths:
 * `[namespaces/NS/]PLURAL[/NAME[/SUBRESOURCE]]`, where `namespaces/NS` alone
 * is the Namespace object itself. Returns undefined for non-resource paths.
 */
export function parseResourcePath(pathname: string, lookup: KindLookup): ResourceRequest | undefined {
  const parts = pathname.split('/').filter((p) => p !== '');
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let segments: string[];
  try {
    segments = rest.map((s) => decodeURIComponent(s));
  } catch {
    throw StatusError.of('BadRequest', `malformed path: ${JSON.stringify(pathname.slice(0, 200))}`);
  }
  if (!segments.every((s) => SEGMENT.test(s))) throw notFoundResource();
  let watchPath = false;
  if (segments[0] === 'watch') {
    watchPath = true;
    segments = segments.slice(1);
  }
  let namespace: string | undefined;
  if (segments[0] === 'namespaces' && segments.length >= 3) {
    namespace = segments[1];
    segments = segments.slice(2);
  } else if (segments[0] === 'namespaces' && segments.length === 2) {
    // GET /api/v1/namespaces/NAME: the namespace object.
    const kind = lookup(group, version, 'namespaces');
    if (!kind) throw notFoundResource();
    return { kind, name: segments[1], watchPath };
  }
  const [plural, name, subresource, ...extra] = segments;
  if (plural === undefined || extra.length > 0) throw notFoundResource();
  const kind = lookup(group, version, plural);
  if (!kind) throw notFoundResource();
  if (kind.kind === 'Namespace' && namespace !== undefined) {
    // /api/v1/namespaces/NAME/status and /finalize parse as namespace "NAME", plural "status".
    throw notFoundResource();
  }
  if (!kind.namespaced && namespace !== undefined) throw notFoundResource();
  if (subresource !== undefined && !kind.subresources.includes(subresource as 'status' | 'scale')) {
    throw notFoundResource();
  }
  return { kind, namespace, name, subresource, watchPath };
}

/** Namespace subresource paths `/api/v1/namespaces/NAME/{status,finalize}` (which the generic parse reads as a namespaced plural). */
export function parseNamespaceSubresource(pathname: string, lookup: KindLookup): ResourceRequest | undefined {
  const m = /^\/api\/v1\/namespaces\/([^/]+)\/(status|finalize)\/?$/.exec(pathname);
  if (!m) return undefined;
  const kind = lookup('', 'v1', 'namespaces');
  if (!kind) return undefined;
  return {
    kind,
    name: decodeURIComponent(m[1]),
    subresource: m[2] === 'finalize' ? 'status' : m[2],
    watchPath: false,
  };
}
