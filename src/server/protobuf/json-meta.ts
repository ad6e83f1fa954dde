/**
 * Decoded protobuf message → JSON form, for the apimachinery types every kind uses (ObjectMeta,
 * LabelSelector, IntOrString, Quantity) and the helpers the kinds share.
 *
 * The rules are those of Go's encoding/json on the upstream types: a non-pointer field with
 * `omitempty` is left out when zero (gogo-protobuf sends it anyway, as "", 0 or false); a pointer
 * field is kept whenever it was sent (protobuf leaves out nil pointers); a struct field is always
 * present, `omitempty` or not; empty lists and maps are never sent, so never shown.
 */
import type { ObjectMeta, OwnerReference } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { OBJECT_META_SCALAR_FIELDS } from '../storage/meta.js';

/** A decoded message as plain data: `toObject` output with int64 as number and bytes as base64. */
export type Plain = Record<string, unknown>;

/** A JSON object being built. */
export type Json = Record<string, unknown>;

export function obj(value: unknown): Plain {
  return typeof value === 'object' && value !== null ? (value as Plain) : {};
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** The list a repeated field decoded to (toObject leaves out an empty one). */
export function list(value: unknown): Plain[] {
  return Array.isArray(value) ? value.map(obj) : [];
}

/** Copies the fields that were sent: pointers, lists, maps (toObject leaves out absent ones). */
export function pick(m: Plain, fields: string[]): Json {
  const out: Json = {};
  for (const f of fields) if (m[f] !== undefined) out[f] = m[f];
  return out;
}

/** Copies the fields whose value is not the zero value (Go `omitempty` on a non-pointer). */
export function nonEmpty(m: Plain, fields: readonly string[]): Json {
  const out: Json = {};
  for (const f of fields) {
    const v = m[f];
    if (v !== undefined && v !== '' && v !== 0 && v !== false) out[f] = v;
  }
  return out;
}

/**
 * meta/v1 Time → RFC 3339 (seconds precision, like its JSON form). An empty message is Go's zero
 * time, which upstream marshals as JSON `null`; undefined means it was not sent (a nil pointer).
 */
function time(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  const t = obj(value);
  if (t.seconds === undefined && t.nanos === undefined) return null;
  return new Date(num(t.seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * ObjectMeta. A zero `creationTimestamp` (always sent: it is a struct in Go) is JSON `null`, which
 * kubectl 1.31 sends for a pod template too; the caller drops it at the top level, where the
 * server sets its own.
 */
export function objectMeta(m: Plain): ObjectMeta {
  const meta: Json = nonEmpty(m, OBJECT_META_SCALAR_FIELDS);
  const created = time(m.creationTimestamp);
  if (created !== undefined) meta.creationTimestamp = created;
  const deleted = time(m.deletionTimestamp);
  if (deleted) meta.deletionTimestamp = deleted;
  if (typeof m.deletionGracePeriodSeconds === 'number')
    meta.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  Object.assign(meta, pick(m, ['labels', 'annotations', 'finalizers']));
  if (Array.isArray(m.ownerReferences)) meta.ownerReferences = list(m.ownerReferences).map(ownerReference);
  if (Array.isArray(m.managedFields)) meta.managedFields = list(m.managedFields).map(managedFieldsEntry);
  return meta as ObjectMeta;
}

function ownerReference(r: Plain): OwnerReference {
  // apiVersion, kind, name and uid have no omitempty: always present in JSON.
  const ref: OwnerReference = {
    apiVersion: str(r.apiVersion),
    kind: str(r.kind),
    name: str(r.name),
    uid: str(r.uid),
  };
  if (typeof r.controller === 'boolean') ref.controller = r.controller;
  if (typeof r.blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = r.blockOwnerDeletion;
  return ref;
}

function managedFieldsEntry(e: Plain): Json {
  const out = nonEmpty(e, ['manager', 'operation', 'apiVersion']);
  const at = time(e.time);
  if (at) out.time = at;
  Object.assign(out, nonEmpty(e, ['fieldsType']));
  const raw = obj(e.fieldsV1).Raw;
  // FieldsV1 carries its JSON form verbatim; the JSON encoding inlines it as an object.
  if (typeof raw === 'string' && raw !== '') {
    try {
      out.fieldsV1 = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
    } catch (err) {
      throw StatusError.of('BadRequest', `corrupt managedFields fieldsV1: ${(err as Error).message}`);
    }
  }
  Object.assign(out, nonEmpty(e, ['subresource']));
  return out;
}

/** Condition-like `{type, status}` pairs have no omitempty on either. */
export function typeAndStatus(c: Plain): Json {
  return { type: str(c.type), status: str(c.status) };
}

/** meta/v1 Time of a condition: kept when set, left out when zero. */
export function setTime(out: Json, key: string, value: unknown): void {
  const at = time(value);
  if (at) out[key] = at;
}

export function labelSelector(s: Plain): Json {
  const out = pick(s, ['matchLabels']);
  if (Array.isArray(s.matchExpressions)) {
    out.matchExpressions = list(s.matchExpressions).map((r) => ({
      // key and operator have no omitempty.
      key: str(r.key),
      operator: str(r.operator),
      ...pick(r, ['values']),
    }));
  }
  return out;
}

/** intstr.IntOrString → its JSON form: a number (type 0, Int) or a string (type 1, String). */
export function intOrString(value: unknown): number | string {
  const v = obj(value);
  return v.type === 1 ? str(v.strVal) : num(v.intVal);
}

/** map<string, resource.Quantity> → the JSON map of quantity strings. */
export function quantities(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(value)).map(([k, q]) => [k, str(obj(q).string)]));
}
