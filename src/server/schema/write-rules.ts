/**
 * What each write handler of kube-apiserver answers when the object it decodes into a Go struct
 * is not of the struct's shape, and what it says about unknown fields, per `fieldValidation`:
 *
 * - create and update bodies (k8s.io/apiserver handlers/create.go `createHandler`, update.go
 *   `UpdateResource`): a decode error is a 400 through `transformDecodeError` (rest.go),
 *   `Pod in version "v1" cannot be handled as a Pod: <error>`; Strict's unknown fields are such
 *   an error (`strict decoding error: unknown field "spec.foo", ...`), Warn's are warnings;
 * - JSON and merge patches (patch.go `jsonPatcher.applyPatchToCurrentObject`): the patched JSON
 *   is decoded the same way, and a failure is a 422 about the field `patch`, quoting the patched
 *   object: ` "" is invalid: patch: Invalid value: "{...}": <error>`;
 * - strategic merge patches (patch.go `applyPatchToObject`): the merged map goes through the
 *   unstructured converter, and a failure is the same 422 quoting the patch as Go's `%+v` prints
 *   it (`map[spec:map[replicas:three]]`);
 * - server-side apply (patch.go `applyPatcher`, managedfields structuredmerge.go `Apply`): the
 *   apply configuration is typed by structured-merge-diff, whose errors (unknown fields
 *   included, whatever fieldValidation says) come back as a 500 without a reason, as
 *   `failed to create typed patch object (<ns>/<name>; <gvk>): <errors>`; what only the Go
 *   types refuse fails on the way back from the merge, `failed to convert new object ...`.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { WarningRecorder } from '../http/warnings.js';
import type { ResourceKind } from '../kinds/types.js';
import { schemaNameOf } from '../openapi/openapi-schemas.js';
import { applyErrors, joinApplyErrors } from './apply-errors.js';
import { unregisteredKindError } from './body-kind.js';
import { converterError, converterStrictErrors } from './converter-errors.js';
import { decoderError, decoderStrictErrors, decoderUnknownFields } from './decoder-errors.js';
import {
  duplicateField,
  duplicateFieldsOf,
  strictErrorText,
  typedStrictErrors,
  yamlDuplicateKeysOf,
} from './duplicate-fields.js';
import type { FieldValidation } from './field-validation.js';
import { goQuote, goValue, jsonKindOf } from './go-text.js';
import { checkerOf, runCheck } from './typed-check.js';
import type { Issue } from './walk.js';

/** The Go type a write decodes into: its kind as the URL serves it and its OpenAPI name. */
export interface DecodeTarget {
  group: string;
  version: string;
  kind: string;
  /** `io.k8s.api.core.v1.Pod`. */
  schemaName: string;
  /**
   * A custom kind's pruning (its {@link ResourceKind.pruneUnknown}): custom objects are
   * unstructured, so nothing fails to decode; the fields their schema does not know are
   * dropped and reported as a typed decode reports unknown fields.
   */
  prune?: (obj: KubeObject) => string[];
}

const targets = new WeakMap<object, DecodeTarget>();

/** The Go type of a served kind (one object per kind, made once). */
export function decodeTargetOf(
  k: Pick<ResourceKind, 'group' | 'version' | 'kind'> & Partial<Pick<ResourceKind, 'pruneUnknown'>>,
): DecodeTarget {
  let target = targets.get(k);
  if (!target) {
    target = { group: k.group, version: k.version, kind: k.kind, schemaName: schemaNameOf(k) };
    if (k.pruneUnknown) target.prune = k.pruneUnknown;
    targets.set(k, target);
  }
  return target;
}

/**
 * A custom object pruned: its unknown fields as the serializer's strict errors
 * (apiextensions-apiserver customresource_handler.go `unstructuredSchemaCoercer.apply`
 * returns their paths; the codec reports them as `unknown field "spec.foo"`).
 */
function pruneCustom(write: TypedWrite, prune: (obj: KubeObject) => string[], obj: KubeObject): string[] {
  if (!write.enabled) return [];
  return prune(obj).map((path) => `unknown field ${JSON.stringify(path)}`);
}

/** The autoscaling/v1 Scale every `/scale` subresource reads and writes. */
export const SCALE_TARGET: DecodeTarget = decodeTargetOf({
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
});

/** How one write request treats its object's shape. */
export interface TypedWrite {
  target: DecodeTarget;
  validation: FieldValidation;
  warnings: WarningRecorder;
  /** False only for the benchmark that measures what the check costs. */
  enabled: boolean;
}

/** The findings of checking `obj`, repaired in place; none when the target has no table type. */
function check(write: TypedWrite, obj: unknown): readonly Issue[] | undefined {
  if (!write.enabled) return undefined;
  const checker = checkerOf(write.target.schemaName);
  return checker ? runCheck(checker, obj) : undefined;
}

/**
 * Warn's warnings, or Strict's error (`strict decoding error: a, b`), from the strict errors;
 * `yamlRepeats`, a YAML body's repeated keys, come first: one go-yaml error under Strict
 * (`yaml: unmarshal errors:\n  line 8: ...`), a warning each under Warn (create.go
 * `addStrictDecodingWarnings` splits a yaml.TypeError).
 */
function strictOutcome(
  write: TypedWrite,
  errors: readonly string[],
  yamlRepeats: readonly string[] = [],
): string | undefined {
  if ((errors.length === 0 && yamlRepeats.length === 0) || write.validation === 'Ignore') return undefined;
  if (write.validation === 'Warn') {
    for (const e of yamlRepeats) write.warnings.add(e);
    for (const e of errors) write.warnings.add(e);
    return undefined;
  }
  const yaml = yamlRepeats.length > 0 ? [`yaml: unmarshal errors:\n  ${yamlRepeats.join('\n  ')}`] : [];
  return `strict decoding error: ${[...yaml, ...errors].join(', ')}`;
}

/**
 * The serializer reads the GVK off a body before decoding it (serializer/json/json.go
 * `SimpleMetaFactory.Interpret`): a non-string apiVersion or kind fails there, with the stdlib
 * decoder's words about an anonymous struct, and no GVK to name.
 */
function checkTypeMetaTypes(target: DecodeTarget, obj: KubeObject): void {
  for (const field of TYPE_META) {
    const v = (obj as Record<string, unknown>)[field];
    if (v === undefined || v === null || typeof v === 'string') continue;
    const error = `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKindOf(v)} into Go struct field .${field} of type string`;
    // transformDecodeError without a GVK: the error and the body's first 30 bytes (rest.go `summarizeData`).
    const body = JSON.stringify(obj);
    const summary = body.length > 30 ? `${body.slice(0, 30)} ...` : body;
    throw StatusError.of(
      'BadRequest',
      `the object provided is unrecognized (must be of type ${target.kind}): ${error} (${summary})`,
    );
  }
}

const TYPE_META = ['apiVersion', 'kind'] as const;

/**
 * `transformDecodeError` with the GVK the body declares, defaulted from the URL:
 * `Deployment in version "v1" cannot be handled as a Deployment: <error>`.
 */
function cannotBeHandled(target: DecodeTarget, obj: KubeObject, error: string): StatusError {
  const apiVersion = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? obj.apiVersion : undefined;
  const version = apiVersion ? (apiVersion.split('/').at(-1) ?? '') : target.version;
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : target.kind;
  return StatusError.of(
    'BadRequest',
    `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${target.kind}: ${error}`,
  );
}

/** A create or update body (PUT, PUT .../status, PUT .../scale), checked and repaired in place. */
export function decodeBody(write: TypedWrite, obj: KubeObject): void {
  checkTypeMetaTypes(write.target, obj);
  if (write.target.prune) {
    // An unstructured body must say its kind (unstructured.go `UnstructuredJSONScheme` decode:
    // no default from the URL as a typed decode has).
    if (typeof obj.kind !== 'string' || obj.kind === '') {
      const body = JSON.stringify(obj);
      const summary = body.length > 30 ? `${body.slice(0, 30)} ...` : body;
      throw StatusError.of(
        'BadRequest',
        `the object provided is unrecognized (must be of type ${write.target.kind}): Object 'Kind' is missing in '${body}' (${summary})`,
      );
    }
    // schemaCoercingDecoder (customresource_handler.go): the JSON decoder's repeated keys, then
    // what pruning dropped.
    const duplicates = duplicateFieldsOf(obj).map(duplicateField);
    const error = strictOutcome(
      write,
      [...duplicates, ...pruneCustom(write, write.target.prune, obj)],
      yamlDuplicateKeysOf(obj),
    );
    if (error !== undefined) throw cannotBeHandled(write.target, obj, error);
    return;
  }
  const unregistered = unregisteredKindError(write.target, obj);
  if (unregistered !== undefined) throw cannotBeHandled(write.target, obj, unregistered);
  // Repeated keys are strict errors too, among the unknown fields as the decoder meets them.
  const issues = check(write, obj) ?? [];
  const yamlRepeats = yamlDuplicateKeysOf(obj);
  if (issues.length === 0 && duplicateFieldsOf(obj).length === 0 && yamlRepeats.length === 0) return;
  const error =
    decoderError(issues) ??
    strictOutcome(
      write,
      typedStrictErrors(obj, decoderUnknownFields(issues)).map(strictErrorText),
      yamlRepeats,
    );
  // The GVK is the one read before the repair, which never touches apiVersion or kind.
  if (error !== undefined) throw cannotBeHandled(write.target, obj, error);
}

/** The 422 `errors.NewInvalid(schema.GroupKind{}, "", field.Invalid("patch", value, detail))`. */
function invalidPatch(value: string, detail: string): StatusError {
  const message = `Invalid value: ${goQuote(value)}: ${detail}`;
  return StatusError.of('Invalid', ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
  });
}

/**
 * A JSON patch's or merge patch's result, checked and repaired in place. `patchErrors` are the
 * strict errors of the patch itself (patch.go `applyJSPatch`: its repeated keys, a JSON patch's
 * unknown operation fields), reported before the patched object's, and dropped with them when
 * its decoding fails outright.
 */
export function decodeJsonPatched(
  write: TypedWrite,
  patched: KubeObject,
  patchErrors: readonly string[] = [],
): void {
  if (write.target.prune) {
    // The unstructured object as json.Marshal writes a map: keys sorted.
    const before = sortedJson(patched);
    const error = strictOutcome(write, [...patchErrors, ...pruneCustom(write, write.target.prune, patched)]);
    if (error !== undefined) throw invalidPatch(before, error);
    return;
  }
  const issues = check(write, patched) ?? [];
  if (issues.length === 0 && patchErrors.length === 0) return;
  const error =
    decoderError(issues) ?? strictOutcome(write, [...patchErrors, ...decoderStrictErrors(issues)]);
  // The patched JSON as it was decoded; here, as it is after the repair.
  if (error !== undefined) throw invalidPatch(JSON.stringify(patched), error);
}

/**
 * A strategic merge patch's result, checked and repaired in place; `patch` is the request's
 * patch, `patchErrors` its own strict errors (patch.go `strategicPatchObject`: its repeated
 * keys), reported before the patched object's.
 */
export function convertStrategicPatched(
  write: TypedWrite,
  patched: KubeObject,
  patch: unknown,
  patchErrors: readonly string[] = [],
): void {
  const issues = check(write, patched) ?? [];
  if (issues.length === 0 && patchErrors.length === 0) return;
  const error =
    converterError(issues) ?? strictOutcome(write, [...patchErrors, ...converterStrictErrors(issues)]);
  if (error !== undefined) throw invalidPatch(goValue(patch), error);
}

/** `<namespace>/<name>; <group>/<version>, Kind=<kind>` (structuredmerge.go `objectGVKNN`). */
function objectGVKNN(obj: KubeObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}; ${gv}, Kind=${kind}`;
}

/**
 * A server-side apply configuration, before it is merged: typed by structured-merge-diff's
 * rules. It is only read, never repaired: an unknown field fails the apply.
 */
export function typeApplyConfiguration(write: TypedWrite, applied: KubeObject): void {
  if (!write.enabled) return;
  if (write.target.prune) {
    // structured-merge-diff types the configuration with the CRD's schema: what it does not
    // declare is an error, `.spec.foo: field not declared in schema`.
    const unknown = write.target
      .prune(structuredClone(applied))
      .map((p) => `.${p}: field not declared in schema`);
    if (unknown.length > 0) {
      throw StatusError.plain(
        `failed to create typed patch object (${objectGVKNN(applied)}): ${joinApplyErrors(unknown)}`,
      );
    }
    return;
  }
  const checker = checkerOf(write.target.schemaName);
  if (!checker) return;
  // The check repairs what it walks; the configuration must reach the merge as it was sent.
  const issues = runCheck(checker, structuredClone(applied));
  const errors = applyErrors(issues);
  if (errors.length > 0) {
    throw StatusError.plain(
      `failed to create typed patch object (${objectGVKNN(applied)}): ${joinApplyErrors(errors)}`,
    );
  }
}

/** A server-side apply's merged object, on its way back to the Go type, checked and repaired in place. */
export function convertApplied(write: TypedWrite, merged: KubeObject, applied: KubeObject): void {
  if (write.target.prune) {
    write.target.prune(merged);
    return;
  }
  const issues = check(write, merged);
  if (!issues || issues.length === 0) return;
  const error = converterError(issues);
  if (error === undefined) return;
  const gvk = objectGVKNN(applied).split('; ')[1];
  throw StatusError.plain(
    `failed to convert new object (${objectGVKNN(applied)}) to proper version: unable to convert unstructured object to ${gvk}: ${error}`,
  );
}

/** JSON with every object's keys sorted, as Go's json.Marshal writes a map[string]interface{}. */
function sortedJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sorted(o[k])]),
    );
  };
  return JSON.stringify(sorted(value));
}
