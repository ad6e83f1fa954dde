/**
 * The quick yes-or-no form of the kube-openapi walk (openapi-walk.ts): almost every write is
 * valid, so validation asks this first and runs the full walk, which alone words errors, only
 * when it says no.
 */
import {
  jsonEqual,
  typeFailure,
  validateEnum,
  validateFormat,
  validateNumber,
  validateString,
} from './checks.js';
import { formatChecker } from './formats.js';
import { hasComposites } from './openapi-walk.js';
import { additionalSchema, isJsonObject, type Structural } from './structural.js';

/**
 * Whether the full walk (openapi-walk.ts `validateNode`) would find nothing wrong with `data`: the same checks in the same
 * places, answered yes or no, without the paths, match counts and error objects the full walk
 * builds for every node. Almost every write is valid, so validation runs this first and the full
 * walk (which alone words errors, picks the anyOf/oneOf branch to report and ratchets unchanged
 * values on update) only when it says no. Ratcheting only ever removes errors, so a clean object
 * is clean with or without an old one.
 */
export function isClean(s: Structural, data: unknown): boolean {
  const typed = s.types.length > 0 || s.format !== undefined;
  if (data === null || data === undefined) {
    return (
      !(typed && typeFailure(s, null) !== 'none') &&
      !(s.enum && s.enum.length > 0 && validateEnum(s, null, '').length > 0)
    );
  }
  if (typed && typeFailure(s, data) !== 'none') return false;
  if (hasComposites(s) && !compositesClean(s, data)) return false;
  if (typeof data === 'string') {
    if (
      (s.maxLength !== undefined || s.minLength !== undefined || s.pattern !== undefined) &&
      validateString(s, data, '').length > 0
    )
      return false;
    if (s.format !== undefined && formatChecker(s.format) && validateFormat(s.format, data, '').length > 0)
      return false;
  } else if (typeof data === 'number') {
    if (validateNumber(s, data, '').length > 0) return false;
  } else if (Array.isArray(data)) {
    if (s.items) for (const v of data) if (!isClean(s.items, v)) return false;
    if (s.minItems !== undefined && data.length < s.minItems) return false;
    if (s.maxItems !== undefined && data.length > s.maxItems) return false;
    if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) return false;
  }
  if (s.enum && s.enum.length > 0 && validateEnum(s, data, '').length > 0) return false;
  return !isJsonObject(data) || objectClean(s, data);
}

/** The walk's `validateSchemaProps` as a yes or no: anyOf needs one branch, oneOf exactly one, allOf all, not none. */
function compositesClean(s: Structural, data: unknown): boolean {
  if (s.anyOf.length > 0 && !s.anyOf.some((sub) => isClean(sub, data))) return false;
  if (s.oneOf.length > 0) {
    let clean = 0;
    for (const sub of s.oneOf) if (isClean(sub, data)) clean++;
    if (clean !== 1) return false;
  }
  if (s.allOf.length > 0 && !s.allOf.every((sub) => isClean(sub, data))) return false;
  return !(s.not && isClean(s.not, data));
}

/** The walk's `validateObject` as a yes or no. */
function objectClean(s: Structural, data: Record<string, unknown>): boolean {
  if (s.minProperties !== undefined || s.maxProperties !== undefined) {
    const n = Object.keys(data).length;
    if (s.minProperties !== undefined && n < s.minProperties) return false;
    if (s.maxProperties !== undefined && n > s.maxProperties) return false;
  }
  const extra = additionalSchema(s);
  for (const key of Object.keys(data)) {
    const prop = s.properties?.get(key);
    if (prop !== undefined) {
      if (!isClean(prop, data[key])) return false;
    } else if (s.additionalProperties === false) return false;
    else if (extra && !isClean(extra, data[key])) return false;
  }
  for (const name of s.required) if (!Object.hasOwn(data, name)) return false;
  return true;
}
