import { randomInt, randomUUID } from 'node:crypto';
import type { KubeObject, ObjectMeta } from '../../protocol/events.js';

/** RFC 3339 with second precision, as metav1.Time serializes. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A new object uid. */
export function newUid(): string {
  return randomUUID();
}

// The alphabet apiserver's name generator uses: no vowels, no confusable digits.
const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `generateName` plus 5 random characters, as kube-apiserver's SimpleNameGenerator. */
export function generateName(base: string): string {
  const prefix = base.length > 58 ? base.slice(0, 58) : base;
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[randomInt(GENERATE_ALPHABET.length)];
  return prefix + suffix;
}

/** ObjectMeta's scalar fields, in the order of its schema (the protobuf decoder copies them as they are). */
export const OBJECT_META_SCALAR_FIELDS: readonly string[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
];

/** Every field of ObjectMeta (fieldValidation=Strict refuses any other under metadata). */
export const OBJECT_META_FIELDS: readonly string[] = [
  ...OBJECT_META_SCALAR_FIELDS,
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** The object's metadata, created if missing. */
export function metaOf(obj: KubeObject): ObjectMeta {
  if (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata))
    obj.metadata = {};
  return obj.metadata;
}

/** Deep equality of two JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => jsonEqual(ao[k], bo[k]));
}
