/**
 * Repeated keys and a patch's own strict errors as sigs.k8s.io/json's strict decoder reports
 * them (src/server/schema/duplicate-fields.ts, patch-strict-errors.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  duplicateFieldsOf,
  strictErrorText,
  strictFieldErrors,
  typedStrictErrors,
  withDuplicateFields,
} from '../../../src/server/schema/duplicate-fields.js';
import { patchStrictErrors } from '../../../src/server/schema/patch-strict-errors.js';

const decode = (text: string, repeated?: 'merge' | 'replace') =>
  withDuplicateFields(text, JSON.parse(text), repeated) as Record<string, unknown>;

describe('withDuplicateFields', () => {
  const text = '{"spec":{"a":1,"a":2},"spec":{"b":3}}';

  it('merges a repeated object as a Go struct does, by default', () => {
    const value = decode(text);
    expect(value).toEqual({ spec: { a: 2, b: 3 } });
    expect(duplicateFieldsOf(value)).toEqual(['spec.a', 'spec']);
  });

  it('lets the later value replace the earlier one as a map does (a custom resource)', () => {
    const value = decode(text, 'replace');
    expect(value).toEqual({ spec: { b: 3 } });
    expect(duplicateFieldsOf(value)).toEqual(['spec.a', 'spec']);
  });

  it('reports a path once however often its key repeats', () => {
    expect(duplicateFieldsOf(decode('{"a":1,"a":2,"a":3,"b":[{"c":1,"c":2}]}'))).toEqual(['a', 'b[0].c']);
  });

  it('leaves a body without repeated keys as parsed, with nothing to report', () => {
    const parsed = JSON.parse('{"a":{"b":1},"c":"a"}');
    expect(withDuplicateFields('{"a":{"b":1},"c":"a"}', parsed)).toBe(parsed);
    expect(duplicateFieldsOf(parsed)).toEqual([]);
  });
});

describe('strictFieldErrors', () => {
  it('stops at 100 errors', () => {
    const keys = Array.from({ length: 150 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',');
    expect(strictFieldErrors(`{${keys}}`)).toHaveLength(100);
  });
});

describe('patchStrictErrors', () => {
  it('names the repeated keys of a merge or strategic merge patch in document order', () => {
    const patch = '{"data":{"x":"1","x":"2"},"data":{"y":"3"},"data":{"y":"4"}}';
    const expected = ['duplicate field "data.x"', 'duplicate field "data"'];
    expect(patchStrictErrors(patch, 'application/merge-patch+json')).toEqual(expected);
    expect(patchStrictErrors(patch, 'application/strategic-merge-patch+json')).toEqual(expected);
    expect(patchStrictErrors('{"data":{"x":"1"}}', 'application/merge-patch+json')).toEqual([]);
  });

  it("reads a JSON patch's operations as Go structs: other keys are unknown, their values unread", () => {
    const patch =
      '[{"op":"add","path":"/metadata/labels","value":{"a":"1","a":"2"},"op":"add","bogus":{"z":1,"z":2}}]';
    expect(patchStrictErrors(patch, 'application/json-patch+json')).toEqual([
      'json patch duplicate field "[0].value.a"',
      'json patch duplicate field "[0].op"',
      'json patch unknown field "[0].bogus"',
    ]);
    expect(patchStrictErrors('[{"op":"remove","path":"/a"}]', 'application/json-patch+json')).toEqual([]);
  });
});

describe('typedStrictErrors', () => {
  /** The strict errors of `text` decoded into a Go struct whose check found `unknown`. */
  const typed = (text: string, unknown: string[]) =>
    typedStrictErrors(decode(text), unknown).map(strictErrorText);

  it('puts each unknown field where its key stands, each repeated key at its second occurrence', () => {
    // The body of the e2e test "FieldValidation should detect unknown and duplicate fields of a
    // typed object": kube-apiserver names the unknown field first.
    expect(typed('{"spec":{"unknownField":"foo","replicas":2,"replicas":3}}', ['spec.unknownField'])).toEqual(
      ['unknown field "spec.unknownField"', 'duplicate field "spec.replicas"'],
    );
    expect(typed('{"spec":{"replicas":2,"replicas":3,"unknownField":"foo"}}', ['spec.unknownField'])).toEqual(
      ['duplicate field "spec.replicas"', 'unknown field "spec.unknownField"'],
    );
  });

  it('interleaves them at every depth, a repeated struct key among its fields', () => {
    const text =
      '{"zeta":1,"metadata":{"labels":{"a":"1","a":"1"},"bogus":1},"spec":{"alpha":1,"replicas":1},"beta":1,"spec":{"gamma":1,"items":[{"x":1,"x":2,"y":1}]}}';
    const unknown = ['zeta', 'metadata.bogus', 'spec.alpha', 'spec.gamma', 'spec.items[0].y', 'beta'];
    expect(typed(text, unknown)).toEqual([
      'unknown field "zeta"',
      'duplicate field "metadata.labels.a"',
      'unknown field "metadata.bogus"',
      'unknown field "spec.alpha"',
      'unknown field "beta"',
      'duplicate field "spec"',
      'unknown field "spec.gamma"',
      'duplicate field "spec.items[0].x"',
      'unknown field "spec.items[0].y"',
    ]);
  });

  it('says nothing of keys repeated inside an unknown field, nor of its own key repeated', () => {
    const text = '{"spec":{"bogus":1,"replicas":2,"bogus":{"a":1,"a":2},"replicas":3}}';
    expect(typed(text, ['spec.bogus'])).toEqual([
      'unknown field "spec.bogus"',
      'duplicate field "spec.replicas"',
    ]);
  });

  it('is the unknown fields alone when no key repeats', () => {
    expect(typed('{"b":1,"a":1}', ['b', 'a'])).toEqual(['unknown field "b"', 'unknown field "a"']);
  });
});
