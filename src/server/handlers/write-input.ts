/**
 * What a write request brings and how it is checked before storage: the body
 * decoded (JSON, YAML or protobuf), `dryRun`, and `fieldValidation` with
 * the typed-object check it steers.
 */
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { checkNestingDepth, MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from '../http/http-io.js';
import { PROTOBUF_CONTENT_TYPE } from '../http/media-types.js';
import { WarningRecorder } from '../http/warnings.js';
import { parseYamlBody, yamlDuplicateKeys } from '../http/yaml-body.js';
import type { ResourceKind } from '../kinds/types.js';
import type { WriteManager } from '../registry/object-storage.js';
import { type RepeatedKeys, setYamlDuplicateKeys, withDuplicateFields } from '../schema/duplicate-fields.js';
import { fieldValidationOf, type WriteOptionsKind } from '../schema/field-validation.js';
import { goQuote } from '../schema/go-text.js';
import type { DecodeTarget, TypedWrite } from '../schema/write-rules.js';
import { managerOrUserAgent } from '../ssa/index.js';
import type { RequestScope } from './request-scope.js';
import type { Query } from './resource-context.js';

/** One error of a request's options (apimachinery `field.Error`): the field and its text. */
export interface OptionError {
  field: string;
  reason: string;
  body: string;
}

/**
 * The 422 of a request's options, `errors.NewInvalid` of meta.k8s.io's options kind as create.go,
 * update.go, patch.go and delete.go answer a failed `Validate*Options`: one error is written
 * bare, more as a bracketed list, each a cause in order.
 */
export function optionsInvalid(
  options: WriteOptionsKind | 'DeleteOptions',
  errors: OptionError[],
): StatusError {
  const texts = errors.map((e) => `${e.field}: ${e.body}`);
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return StatusError.of('Invalid', `${options}.meta.k8s.io "" is invalid: ${aggregate}`, {
    group: 'meta.k8s.io',
    kind: options,
    causes: errors.map((e) => ({ reason: e.reason, message: e.body, field: e.field })),
  });
}

/**
 * meta/v1 validation `ValidateDryRun`: every value must be `All`. The value shown is the whole
 * list, as the Go slice is written (JSON).
 */
export function dryRunErrors(values: string[]): OptionError[] {
  if (values.every((v) => v === 'All')) return [];
  return [
    {
      field: 'dryRun',
      reason: 'FieldValueNotSupported',
      body: `Unsupported value: ${JSON.stringify(values)}: supported values: "All"`,
    },
  ];
}

/** `dryRun=All`, the only value kube-apiserver knows; anything else is the options' 422. */
export function dryRun(query: Query, options: WriteOptionsKind | 'DeleteOptions' = 'CreateOptions'): boolean {
  const values = query.getAll('dryRun');
  const errors = dryRunErrors(values);
  if (errors.length > 0) throw optionsInvalid(options, errors);
  return values.length > 0;
}

/**
 * Reads a create/update body: JSON, YAML, or the protobuf kubectl 1.32+ sends for `create`. A
 * JSON body's repeated keys combine as its target decodes them: `merge` for a built-in kind's Go
 * struct, `replace` for a custom resource's unstructured map (schema/duplicate-fields.ts).
 * `targetKind`, the Go type a built-in endpoint decodes into, names it in a protobuf decode error.
 */
export async function readObject(
  req: IncomingMessage,
  repeated: RepeatedKeys = 'merge',
  targetKind?: string,
): Promise<KubeObject> {
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
    protobufBody ??= import('../http/protobuf-body.js');
    const { decodeProtobufObject } = await protobufBody;
    value = await decodeProtobufObject(body, targetKind);
    checkNestingDepth(value);
  } else if (type === 'application/yaml') {
    value = await parseYamlBody(body);
    if (typeof value === 'object' && value !== null)
      setYamlDuplicateKeys(value, await yamlDuplicateKeys(body));
  }
  // parseJsonBody and parseYamlBody check the nesting depth themselves.
  else if (type === '' || type === 'application/json')
    value = withDuplicateFields(body.toString('utf8'), parseJsonBody(body), repeated);
  else {
    throw StatusError.of(
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw StatusError.of('BadRequest', 'the request body must be a single object');
  }
  return value as KubeObject;
}

/**
 * How a kind's body decodes a repeated key: into a Go struct for a built-in kind, into the
 * unstructured map of a custom resource (apiextensions-apiserver's `UnstructuredJSONScheme`).
 */
export function repeatedKeysOf(kind: Pick<ResourceKind, 'custom'>): RepeatedKeys {
  return kind.custom ? 'replace' : 'merge';
}

/** The Go type a built-in kind's body decodes into; custom resources have no protobuf form. */
export function goKindOf(kind: ResourceKind): string | undefined {
  return kind.custom ? undefined : kind.kind;
}

/**
 * update.go runs rest.go `checkName` on the decoded body: a body without a name cannot say which
 * object it is (the namer's `name must be provided`); one naming another object is refused by
 * storage's update.
 */
export function checkBodyNamed(body: KubeObject, name: string): void {
  const bodyName = body.metadata?.name;
  if (bodyName === undefined || bodyName === null || bodyName === '') {
    throw StatusError.of(
      'BadRequest',
      `the name of the object (${name} based on URL) was undeterminable: name must be provided`,
    );
  }
}

let writeRules: Promise<typeof import('../schema/write-rules.js')> | undefined;
/** Loaded once, on the first protobuf body (a dynamic import() per request is not free). */
let protobufBody: Promise<typeof import('../http/protobuf-body.js')> | undefined;

/**
 * The typed-object check's rules (schema/write-rules.ts), loaded on the first write: the type
 * table and the compiled checkers are start-up time a server that is only read would pay.
 */
export function loadWriteRules(): Promise<typeof import('../schema/write-rules.js')> {
  writeRules ??= import('../schema/write-rules.js');
  return writeRules;
}

/**
 * How a write request treats its object's shape: the Go type it decodes into (`target`), its
 * `fieldValidation` (a bad value is refused here, before the body is looked at, as
 * kube-apiserver validates the options first), and where Warn's warnings go. The checks
 * themselves are the handlers' rules in schema/write-rules.ts.
 */
export function typedWrite(scope: RequestScope, target: DecodeTarget, options: WriteOptionsKind): TypedWrite {
  validateWriteOptions(scope.query, options);
  return {
    target,
    validation: fieldValidationOf(scope.query, options),
    warnings: new WarningRecorder(scope.res),
    enabled: scope.server.typeCheck !== false,
  };
}

/**
 * The field manager a create, update or non-apply patch records (handlers/rest.go
 * `managerOrUserAgent`): the `fieldManager` query, else the User-Agent's first part.
 */
export function writeManager({ req, query }: RequestScope): WriteManager {
  return { manager: managerOrUserAgent(query.get('fieldManager') ?? undefined, req.headers['user-agent']) };
}

/** apimachinery validation `FieldManagerMaxLength`. */
const FIELD_MANAGER_MAX_LENGTH = 128;

/**
 * meta/v1 validation `ValidateCreateOptions`, `ValidateUpdateOptions` and `ValidatePatchOptions`,
 * which create.go, update.go and patch.go run before the body is looked at: the errors of
 * `first` (a patch's own), then the fieldManager's, dryRun's and fieldValidation's, all in one
 * 422.
 */
export function validateWriteOptions(
  query: Query,
  options: WriteOptionsKind,
  first: OptionError[] = [],
): void {
  const errors = [
    ...first,
    ...fieldManagerErrors(query.get('fieldManager') ?? ''),
    ...dryRunErrors(query.getAll('dryRun')),
  ];
  try {
    fieldValidationOf(query, options);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    for (const c of err.status.details?.causes ?? [])
      errors.push({ field: c.field ?? '', reason: c.reason ?? '', body: c.message ?? '' });
  }
  if (errors.length > 0) throw optionsInvalid(options, errors);
}

/**
 * meta/v1 validation `ValidateFieldManager`: at most 128 bytes, every rune printable (Go
 * `unicode.IsPrint`), each offending rune named with its byte position.
 */
function fieldManagerErrors(fieldManager: string): OptionError[] {
  const errors: OptionError[] = [];
  if (Buffer.byteLength(fieldManager) > FIELD_MANAGER_MAX_LENGTH) {
    errors.push({
      field: 'fieldManager',
      reason: 'FieldValueTooLong',
      body: `Too long: must have at most ${FIELD_MANAGER_MAX_LENGTH} bytes`,
    });
  }
  let position = 0;
  for (const ch of fieldManager) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errors.push({
        field: 'fieldManager',
        reason: 'FieldValueInvalid',
        body: `Invalid value: ${goQuote(fieldManager)}: invalid character U+${code} (at position ${position})`,
      });
    }
    position += Buffer.byteLength(ch);
  }
  return errors;
}
