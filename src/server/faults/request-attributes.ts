/**
 * What a resource request is, in kube-apiserver's words: the verb its RequestInfo resolves
 * (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go, `NewRequestInfo`) and the
 * attributes a test matches faults against and reads back from the request record.
 */
import type { IncomingMessage } from 'node:http';
import type { ResourceRequest } from '../http/request-info.js';

/** The verbs of requestinfo.go for resource requests. */
export type RequestVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

/** One resource request as the server answered it (see `ServerOptions.onRequest`). */
export interface RequestRecord {
  verb: RequestVerb;
  /** '' for the core group. */
  apiGroup: string;
  apiVersion: string;
  /** The plural, e.g. `pods`. */
  resource: string;
  subresource?: string;
  namespace?: string;
  /** The path's name, or a list's or watch's `metadata.name=` field selector (as RequestInfo reads it). */
  name?: string;
  userAgent?: string;
  /** The `fieldManager` query parameter, when given. */
  fieldManager?: string;
  /** A PATCH's media type: `application/apply-patch+yaml` is server-side apply. */
  patchType?: string;
  /** `dryRun=All` was given. */
  dryRun: boolean;
  /** The HTTP status sent (a watch: the status its stream started with); 0 when the client left before any answer. */
  code: number;
  /** The request's `resourceVersion` parameter. */
  resourceVersion?: string;
  /** The resourceVersion of the object or list answered, when the answer carried one in its metadata. */
  resultResourceVersion?: string;
  /** Clock ms when the request arrived. */
  time: number;
}

/** Everything of a {@link RequestRecord} known before the answer. */
export type RequestAttributes = Omit<RequestRecord, 'code' | 'resultResourceVersion'>;

/** requestinfo.go's method-to-verb table. */
const METHOD_VERBS: Record<string, RequestVerb> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** A `watch` query value as ListOptions decodes it: anything but false/0 (and empty) is true. */
function watchParam(value: string | null): boolean {
  if (value === null || value === '') return false;
  const v = value.toLowerCase();
  return v !== 'false' && v !== '0';
}

/**
 * The name a field selector requires (`metadata.name=x` or `metadata.name==x`, as
 * fields.Selector `RequiresExactMatch` reads it), when it is a valid path segment.
 */
function selectedName(fieldSelector: string | null): string | undefined {
  if (!fieldSelector) return undefined;
  for (const term of fieldSelector.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m && !term.includes('!=')) {
      const name = m[1];
      // path.IsValidPathSegmentName
      if (name !== '' && name !== '.' && name !== '..' && !/[/%]/.test(name)) return name;
    }
  }
  return undefined;
}

/**
 * The attributes of a resource request. The verb follows requestinfo.go `NewRequestInfo`: the
 * method's verb; `watch` for the legacy `/watch/` paths; a GET without a name is `watch` with
 * `?watch=true` and `list` otherwise, and then names the object a `metadata.name=` field
 * selector requires; a DELETE without a name is `deletecollection`.
 */
export function requestAttributes(
  req: IncomingMessage,
  info: ResourceRequest,
  query: URLSearchParams,
  time: number,
): RequestAttributes {
  const method = req.method ?? 'GET';
  let verb: RequestVerb = info.watchPath ? 'watch' : (METHOD_VERBS[method] ?? 'get');
  let name = info.name;
  if (name === undefined && verb === 'get') {
    verb = watchParam(query.get('watch')) ? 'watch' : 'list';
    name = selectedName(query.get('fieldSelector'));
  }
  if (name === undefined && verb === 'delete') verb = 'deletecollection';
  const { kind } = info;
  const attrs: RequestAttributes = {
    verb,
    apiGroup: kind.group,
    apiVersion: kind.version,
    resource: kind.plural,
    dryRun: query.getAll('dryRun').includes('All'),
    time,
  };
  if (info.subresource !== undefined) attrs.subresource = info.subresource;
  if (info.namespace !== undefined) attrs.namespace = info.namespace;
  // requestinfo.go reads `namespaces/NAME` as namespace NAME too: a Namespace's own requests
  // carry their name as the namespace (audit's objectRef shows the same).
  else if (kind.plural === 'namespaces' && kind.group === '' && info.name !== undefined)
    attrs.namespace = info.name;
  if (name !== undefined) attrs.name = name;
  const userAgent = req.headers['user-agent'];
  if (userAgent !== undefined) attrs.userAgent = userAgent;
  const fieldManager = query.get('fieldManager');
  if (fieldManager !== null && fieldManager !== '') attrs.fieldManager = fieldManager;
  if (method === 'PATCH') {
    const type = req.headers['content-type'];
    if (type !== undefined) attrs.patchType = type.split(';')[0].trim().toLowerCase();
  }
  const rv = query.get('resourceVersion');
  if (rv !== null) attrs.resourceVersion = rv;
  return attrs;
}
