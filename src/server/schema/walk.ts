/**
 * The state of one check of one object: where the walk is (the keys from the root, and for each
 * the Go struct it is a field of) and what it found. Only finding something allocates: the path
 * is two stacks pushed and popped in place, copied into an {@link Issue} when one is reported.
 */
import type { Schema } from './schema.js';

/**
 * What is wrong at a place:
 * - `type`: the JSON kind is not one the schema takes (a string for an int32);
 * - `range`: a number the integer type cannot hold (a fraction, or beyond int32/int64);
 * - `unmarshal`: a type with a parser of its own refused the value (Quantity, Time,
 *   IntOrString), `detail` says how, in the parser's words;
 * - `base64`: a []byte string that is not standard base64, `detail` is Go's text;
 * - `unknown`: a field the struct does not have; it has been removed from the object.
 */
export type IssueKind = 'type' | 'range' | 'unmarshal' | 'base64' | 'unknown';

/**
 * A struct field as a decoder error names it: the Go struct (`PodSpec`) and the field's step of
 * the error's field path (its JSON name, after the embedded structs it is promoted from:
 * `Rule.apiGroups`).
 */
export interface GoField {
  struct: string;
  field: string;
}

/**
 * An error of a nested `json.Unmarshal` inside a type's own UnmarshalJSON (a Time's string, an
 * IntOrString's int32): encoding/json's UnmarshalTypeError parts, which the outer decoder names
 * the struct field of (sigs.k8s.io/json decode.go `addErrorContext`), and the converter does not.
 */
export interface NestedTypeError {
  /** `number`, `number 1.5`, `bool` ... */
  value: string;
  /** The Go type the nested decode was into: `string`, `int32`. */
  type: string;
}

/** One finding of a check. */
export interface Issue {
  kind: IssueKind;
  /** The keys from the root to the value: field names and map keys (strings), list indexes. */
  keys: readonly (string | number)[];
  /** For each key, the Go struct field it is (see {@link GoField}); undefined for map keys and indexes. */
  owners: readonly (GoField | undefined)[];
  /** The value found (for `unknown`, the unknown field's value). */
  value: unknown;
  /** The schema the value was checked against (for `unknown`, the struct's). */
  schema: Schema;
  /** The object or list holding the value, and its key there, for a caller that repairs it. */
  parent: unknown;
  key: string | number;
  detail?: string;
  /** For `unmarshal`: the parts of `detail` when it is a nested UnmarshalTypeError. */
  nested?: NestedTypeError;
}

/** The walk's position and findings, for one check at a time (checks are synchronous). */
export class Walk {
  private readonly keys: (string | number)[] = [];
  private readonly owners: (GoField | undefined)[] = [];
  /** What was found, in document order; undefined while nothing was. */
  issues: Issue[] | undefined;

  private record(issue: Issue): void {
    if (this.issues) this.issues.push(issue);
    else this.issues = [issue];
  }

  /** Starts a new check: no place, nothing found. */
  reset(): void {
    this.keys.length = 0;
    this.owners.length = 0;
    this.issues = undefined;
  }

  /** Steps into `key`, the struct field `owner`, or a map key or list index (`owner` undefined). */
  enter(key: string | number, owner: GoField | undefined): void {
    this.keys.push(key);
    this.owners.push(owner);
  }

  /** Steps back out of the last {@link enter}. */
  leave(): void {
    this.keys.pop();
    this.owners.pop();
  }

  /** Records a finding at the current place. */
  report(
    kind: Exclude<IssueKind, 'unknown'>,
    value: unknown,
    schema: Schema,
    parent: unknown,
    key: string | number,
    detail?: string,
    nested?: NestedTypeError,
  ): void {
    const issue: Issue = {
      kind,
      keys: this.keys.slice(),
      owners: this.owners.slice(),
      value,
      schema,
      parent,
      key,
      detail,
      nested,
    };
    this.record(issue);
  }

  /** Records the unknown field `key` of the struct being walked (schema `struct`, Go field `owner`). */
  unknown(key: string, value: unknown, struct: Schema, owner: GoField | undefined, parent: unknown): void {
    const issue: Issue = {
      kind: 'unknown',
      keys: [...this.keys, key],
      owners: [...this.owners, owner],
      value,
      schema: struct,
      parent,
      key,
    };
    this.record(issue);
  }
}
