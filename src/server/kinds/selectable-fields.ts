/**
 * How a kind's field selectors beyond metadata.name and metadata.namespace
 * (which the server handles for every kind) read an object, the way
 * kube-apiserver's `ToSelectableFields` functions read it: every supported
 * field always has a value, "" when absent, so `spec.nodeName=` selects the
 * pods no node has taken yet. Each kind lists its own fields in its
 * definition (`ResourceKind.fields`); a field not listed for a kind is a 400.
 */

import type { KubeObject } from '../../protocol/events.js';
import { getPath, str } from './access.js';

/** Reads one selectable field of an object. */
export type FieldGetter = (obj: KubeObject) => string;

/** A string field at a dotted path; absent (or not a string) reads as "", as in kube's `fields.Set`. */
export function pathField(path: string): FieldGetter {
  return (obj) => str(getPath(obj, path));
}

/** A boolean field as Go's `strconv.FormatBool` prints it; absent is "false". */
export function boolField(path: string): FieldGetter {
  return (obj) => String(getPath(obj, path) === true);
}

/** An integer field as `strconv.Itoa` prints it; absent is "0". */
export function intField(path: string): FieldGetter {
  return (obj) => {
    const value = getPath(obj, path);
    return typeof value === 'number' && Number.isInteger(value) ? String(value) : '0';
  };
}
