/**
 * The operation objects of the OpenAPI v3 group-version documents, built-in and custom kinds
 * alike: operationId, tags, parameters, request and response media types, and the Kubernetes
 * extensions (`x-kubernetes-action`, `x-kubernetes-group-version-kind`) kubectl reads.
 */
import {
  DELETE_PARAMS,
  LIST_CONTENT_TYPES,
  LIST_PARAMS,
  OBJECT_CONTENT_TYPES,
  type OpenApiParameter,
  PATCH_CONTENT_TYPES,
  PATCH_PARAMS,
  WRITE_PARAMS,
} from './parameters.js';

/** `x-kubernetes-group-version-kind`; `group` is "" for core. */
export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** An OpenAPI v3 operation object with the Kubernetes extensions kubectl reads. */
export interface OpenApiOperation {
  tags: string[];
  description: string;
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: object }>; required: boolean };
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
  'x-kubernetes-action': string;
  'x-kubernetes-group-version-kind': Gvk;
}

/** An OpenAPI v3 path item: operations plus path-level parameters. */
export type OpenApiPathItem = {
  parameters?: OpenApiParameter[];
} & Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', OpenApiOperation>>;

/** The media types of one kind's operations: what its handlers produce and consume. */
export interface OperationMedia {
  /** Responses carrying one object. */
  object: string[];
  /** Responses of list (and watch). */
  list: string[];
  /** Request bodies of create, replace and delete. */
  write: string[];
  /** Request bodies of patch. */
  patch: string[];
}

/** The built-in kinds' media types: JSON, YAML and protobuf, every patch type. */
export const BUILTIN_MEDIA: OperationMedia = {
  object: OBJECT_CONTENT_TYPES,
  list: LIST_CONTENT_TYPES,
  write: ['*/*'],
  patch: PATCH_CONTENT_TYPES,
};

/** What an operation is: its verb, names and the schemas of what it reads and returns. */
export interface OpSpec {
  /** Verb prefix of the operationId: list, create, read, replace, patch, delete, deletecollection. */
  verb: 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete' | 'deletecollection';
  /** Middle of the operationId, e.g. `NamespacedPod`, `PodForAllNamespaces`, `NamespacedPodStatus`. */
  subject: string;
  gvk: Gvk;
  tag: string;
  /** `CoreV1`, `AppsV1`, `ExampleComV1`: the group-version part of the operationId. */
  prefix: string;
  description: string;
  media: OperationMedia;
  /** The schemas of the object and of the list it reads or returns (default: any object). */
  objectSchema?: object;
  listSchema?: object;
}

const ACTIONS: Record<OpSpec['verb'], string> = {
  list: 'list',
  create: 'post',
  read: 'get',
  replace: 'put',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
};

const ANY_OBJECT = { type: 'object' };

function content(types: string[], schema: object = ANY_OBJECT): Record<string, { schema: object }> {
  return Object.fromEntries(types.map((t) => [t, { schema }]));
}

/** One operation, with the parameters and responses kube-apiserver lists for its verb. */
export function operation(spec: OpSpec): OpenApiOperation {
  const operationId =
    spec.verb === 'deletecollection'
      ? `delete${spec.prefix}Collection${spec.subject}`
      : `${spec.verb}${spec.prefix}${spec.subject}`;
  const op: OpenApiOperation = {
    tags: [spec.tag],
    description: spec.description,
    operationId,
    responses: {},
    'x-kubernetes-action': ACTIONS[spec.verb],
    'x-kubernetes-group-version-kind': { ...spec.gvk },
  };
  const { media } = spec;
  const ok = { description: 'OK', content: content(media.object, spec.objectSchema) };
  const body = (types: string[], schema?: object) => ({ content: content(types, schema), required: true });
  switch (spec.verb) {
    case 'list':
      op.parameters = [...LIST_PARAMS];
      op.responses = { '200': { description: 'OK', content: content(media.list, spec.listSchema) } };
      break;
    case 'create':
      op.parameters = [...WRITE_PARAMS];
      op.requestBody = body(media.write, spec.objectSchema);
      op.responses = {
        '200': ok,
        '201': { ...ok, description: 'Created' },
        '202': { ...ok, description: 'Accepted' },
      };
      break;
    case 'read':
      op.responses = { '200': ok };
      break;
    case 'replace':
      op.parameters = [...WRITE_PARAMS];
      op.requestBody = body(media.write, spec.objectSchema);
      op.responses = { '200': ok, '201': { ...ok, description: 'Created' } };
      break;
    case 'patch':
      op.parameters = [...PATCH_PARAMS];
      op.requestBody = body(media.patch);
      op.responses = { '200': ok, '201': { ...ok, description: 'Created' } };
      break;
    case 'delete':
      op.parameters = [...DELETE_PARAMS];
      op.requestBody = { content: content(media.write), required: false };
      op.responses = { '200': ok, '202': { ...ok, description: 'Accepted' } };
      break;
    case 'deletecollection':
      op.parameters = [...DELETE_PARAMS, ...LIST_PARAMS.filter((p) => p.name !== 'watch')];
      op.requestBody = { content: content(media.write), required: false };
      op.responses = { '200': ok };
      break;
  }
  op.responses['401'] = { description: 'Unauthorized' };
  return op;
}
