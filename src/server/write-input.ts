/**
 * What a write request brings and how it is checked before storage: the body
 * decoded (JSON, YAML or protobuf), `dryRun`, and `fieldValidation=Strict`'s
 * unknown-field check.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';
import { checkNestingDepth, MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from './http-io.js';
import type { ResourceKind } from './kinds/types.js';
import { PROTOBUF_CONTENT_TYPE } from './media-types.js';
import { OBJECT_META_FIELDS } from './meta.js';
import type { Query } from './resource-context.js';
import { parseYamlBody } from './yaml-body.js';

const KNOWN_META_FIELDS = new Set(OBJECT_META_FIELDS);

/** `dryRun=All` (the only value kube-apiserver knows); anything else is a 400. */
export function dryRun(query: Query): boolean {
  const values = query.getAll('dryRun');
  for (const v of values) {
    if (v !== 'All')
      throw StatusError.of('BadRequest', `dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  return values.length > 0;
}

/** Reads a create/update body: JSON, YAML, or the protobuf kubectl 1.32+ sends for `create`. */
export async function readObject(req: IncomingMessage): Promise<KubeObject> {
  const body = await readBody(req, MAX_BODY_BYTES);
  const type = mediaType(req.headers['content-type']);
  let value: unknown;
  // The serializers kube-apiserver negotiates a create or update body with
  // (k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go,
  // `NegotiateInputSerializerForMediaType`): a missing Content-Type means the
  // first, JSON; anything else unknown, `text/plain` and the apply-patch type
  // included, is 415.
  if (type === PROTOBUF_CONTENT_TYPE) {
    // Loaded on first use: its schema tables are import time every server would pay otherwise.
    const { decodeProtobufObject } = await import('./protobuf.js');
    value = await decodeProtobufObject(body);
  } else if (type === 'application/yaml') value = await parseYamlBody(body);
  else if (type === '' || type === 'application/json') value = parseJsonBody(body);
  else {
    throw StatusError.of(
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw StatusError.of('BadRequest', 'the request body must be a single object');
  }
  checkNestingDepth(value);
  return value as KubeObject;
}

/**
 * `fieldValidation`: Strict rejects unknown fields (400), Warn reports them in
 * a Warning header (not implemented beyond top level and metadata), Ignore
 * drops them silently. Only the top level and metadata are checked: the
 * server has no full schemas.
 */
export function checkFields(kind: ResourceKind, obj: KubeObject, query: Query): void {
  const mode = query.get('fieldValidation') ?? 'Warn';
  if (mode !== 'Strict' && mode !== 'Warn' && mode !== 'Ignore') {
    throw StatusError.of(
      'BadRequest',
      `fieldValidation: Unsupported value: "${mode}": supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  if (mode !== 'Strict') return;
  const unknown: string[] = [];
  for (const key of Object.keys(obj)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata' && !kind.topLevelFields.includes(key)) {
      unknown.push(key);
    }
  }
  if (obj.metadata && typeof obj.metadata === 'object') {
    for (const key of Object.keys(obj.metadata))
      if (!KNOWN_META_FIELDS.has(key)) unknown.push(`metadata.${key}`);
  }
  if (unknown.length > 0) {
    throw StatusError.of(
      'BadRequest',
      `strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
    );
  }
}
