/**
 * The collection a client-node informer path names. client-node takes the
 * path as a string and appends `?watch=true&...` to it; watchmark lists and
 * watches a {@link ResourcePath}, so the string is read into one here, where
 * a wrong path is refused at once instead of on every retry.
 */
import { ResourcePath } from '../client/watch/resources.js';

/** A collection path read from a client-node path, with the selectors its query string carried. */
export interface ParsedPath {
  resource: ResourcePath;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * Reads `/api/v1[/namespaces/NS]/PLURAL` or
 * `/apis/GROUP/VERSION[/namespaces/NS]/PLURAL` (what client-node's docs and
 * every informer pass). A query string's `labelSelector` and
 * `fieldSelector` are kept: client-node's Watch sends them too.
 */
export function parseCollectionPath(path: string): ParsedPath {
  const url = new URL(path, 'http://path.invalid');
  const parts = url.pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 2) {
    group = '';
    rest = parts.slice(1);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(2);
  } else {
    throw new Error(notACollection(path));
  }
  const [version, ...tail] = rest;
  let namespace: string | undefined;
  let plural: string;
  if (tail.length === 1) plural = tail[0];
  else if (tail.length === 3 && tail[0] === 'namespaces') {
    namespace = tail[1];
    plural = tail[2];
  } else throw new Error(notACollection(path));
  const type = { group, version, kind: '', plural, namespaced: namespace !== undefined };
  return {
    resource: new ResourcePath(type, namespace),
    labelSelector: url.searchParams.get('labelSelector') ?? undefined,
    fieldSelector: url.searchParams.get('fieldSelector') ?? undefined,
  };
}

function notACollection(path: string): string {
  return (
    `watchmark/client-node: ${JSON.stringify(path)} is not a collection path ` +
    '(/api/v1[/namespaces/NS]/RESOURCE or /apis/GROUP/VERSION[/namespaces/NS]/RESOURCE)'
  );
}
