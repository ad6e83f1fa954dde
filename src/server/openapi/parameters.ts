/**
 * The parameters and media types of the operations in the OpenAPI v3
 * group-version documents (openapi.ts), as kube-apiserver's published
 * document lists them. kubectl reads only a few (the PATCH operation's
 * `fieldValidation` above all); the rest are there so that other tools that
 * read the document find what the real one has.
 */

/** An OpenAPI v3 parameter object (inline; the real document `$ref`s shared ones). */
export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  required?: boolean;
  schema: { type: string; uniqueItems?: boolean };
}

export const PATCH_CONTENT_TYPES = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
export const OBJECT_CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
];
export const LIST_CONTENT_TYPES = [
  ...OBJECT_CONTENT_TYPES,
  'application/json;stream=watch',
  'application/vnd.kubernetes.protobuf;stream=watch',
];

function query(name: string, type: string, description: string): OpenApiParameter {
  return { name, in: 'query', description, schema: { type, uniqueItems: true } };
}

function pathParam(name: string, description: string): OpenApiParameter {
  return { name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } };
}

export const P = {
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed."),
  dryRun: query('dryRun', 'string', 'When present, indicates that modifications should not be persisted.'),
  fieldManager: query(
    'fieldManager',
    'string',
    'A name associated with the actor or entity making these changes.',
  ),
  // The parameter kubectl's query-param verifier looks for on the PATCH operation.
  fieldValidation: query(
    'fieldValidation',
    'string',
    'How the server handles unknown or duplicate fields in the request: Ignore, Warn or Strict.',
  ),
  force: query('force', 'boolean', 'Force is going to "force" Apply requests.'),
  allowWatchBookmarks: query('allowWatchBookmarks', 'boolean', 'Requests watch events with type "BOOKMARK".'),
  continue: query('continue', 'string', 'The continue option from a previous paginated list.'),
  fieldSelector: query(
    'fieldSelector',
    'string',
    'A selector to restrict the list of returned objects by fields.',
  ),
  labelSelector: query(
    'labelSelector',
    'string',
    'A selector to restrict the list of returned objects by labels.',
  ),
  limit: query('limit', 'integer', 'The maximum number of responses to return for a list call.'),
  resourceVersion: query(
    'resourceVersion',
    'string',
    'Sets a constraint on what resource versions may be served.',
  ),
  resourceVersionMatch: query(
    'resourceVersionMatch',
    'string',
    'How resourceVersion is applied to list calls.',
  ),
  sendInitialEvents: query(
    'sendInitialEvents',
    'boolean',
    'Starts a watch with the current state as ADDED events.',
  ),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call.'),
  watch: query('watch', 'boolean', 'Watch for changes to the described resources.'),
  gracePeriodSeconds: query('gracePeriodSeconds', 'integer', 'The duration in seconds before deletion.'),
  orphanDependents: query('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy.'),
  propagationPolicy: query('propagationPolicy', 'string', 'Whether and how garbage collection is performed.'),
  name: (kind: string) => pathParam('name', `name of the ${kind}`),
  namespace: pathParam('namespace', 'object name and auth scope, such as for teams and projects'),
};

export const LIST_PARAMS = [
  P.allowWatchBookmarks,
  P.continue,
  P.fieldSelector,
  P.labelSelector,
  P.limit,
  P.resourceVersion,
  P.resourceVersionMatch,
  P.sendInitialEvents,
  P.timeoutSeconds,
  P.watch,
];
export const WRITE_PARAMS = [P.dryRun, P.fieldManager, P.fieldValidation];
export const PATCH_PARAMS = [...WRITE_PARAMS, P.force];
export const DELETE_PARAMS = [P.dryRun, P.gracePeriodSeconds, P.orphanDependents, P.propagationPolicy];
