/**
 * The whole-object walks skip subtrees whose schema cannot report (src/server/crd/schema/
 * subtree.ts): what they find deep below siblings without rules, embedded resources or
 * set/map lists must be exactly what a full walk finds, and a node's rules share one
 * conversion of its value without seeing each other's.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import { compileCrdSchema } from '../../../../src/server/crd/schema/engine.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';

const lines = (errs: { field: string; message: string }[]): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);

/** `spec.plain` has nothing to check; `spec.deep` is a map of lists of objects holding `inner`. */
function schemaWith(inner: CrdSchemaProps): CrdSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          plain: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
          deep: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              items: { type: 'object', properties: { inner } },
            },
          },
        },
      },
    },
  };
}

const object = (inner: unknown) => ({
  apiVersion: 'x.io/v1',
  kind: 'X',
  metadata: { name: 'x' },
  spec: { plain: { a: 'a', b: 1 }, deep: { k: [{ inner: 'ok' }, { inner }] } },
});

describe('walks that skip subtrees without anything to check', () => {
  it('a CEL rule under a map of lists is evaluated, with its path', () => {
    const crd = compileCrdSchemaWithCel(
      schemaWith({ type: 'string', 'x-kubernetes-validations': [{ rule: 'self != "bad"', message: 'no' }] }),
    );
    expect(lines(crd.validate(object('bad')))).toEqual(['spec.deep[k][1].inner: Invalid value: "bad": no']);
    expect(crd.validate(object('fine'))).toEqual([]);
  });

  it('an embedded resource under a map of lists is checked', () => {
    const crd = compileCrdSchema(
      schemaWith({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} }),
    );
    const obj = object({ apiVersion: 'v1', kind: 'bad_kind' });
    obj.spec.deep.k[0] = { inner: { apiVersion: 'v1', kind: 'Good' } } as never;
    expect(lines(crd.validate(obj))).toEqual([
      "spec.deep[k][1].inner.kind: Invalid value: \"bad_kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('a set list under a map of lists reports its duplicate', () => {
    const crd = compileCrdSchema(
      schemaWith({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }),
    );
    const obj = object(['a', 'b', 'a']);
    obj.spec.deep.k[0] = { inner: ['a'] } as never;
    expect(lines(crd.validate(obj))).toEqual(['spec.deep[k][1].inner[2]: Duplicate value: "a"']);
  });

  it('pruning names unknown fields deep in lists and maps', () => {
    const crd = compileCrdSchema(schemaWith({ type: 'string' }));
    const obj = {
      ...object('x'),
      spec: { plain: { a: 'a', zz: 1 }, deep: { k: [{ inner: 'x' }, { inner: 'y', extra: { q: 1 } }] } },
    };
    expect(crd.prune(obj)).toEqual(['spec.deep.k[1].extra', 'spec.plain.zz']);
    expect(obj.spec).toEqual({ plain: { a: 'a' }, deep: { k: [{ inner: 'x' }, { inner: 'y' }] } });
  });
});

describe("a node's rules share its converted value", () => {
  it('each rule sees the same value, and every failure is reported in order', () => {
    const crd = compileCrdSchemaWithCel({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'self.n == 2', message: 'first' },
            { rule: 'self.tags.size() == 1', message: 'second' },
            { rule: "self.tags[0] == 'a'", message: 'third' },
          ],
          properties: {
            n: { type: 'integer' },
            tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          },
        },
      },
    });
    const spec = { n: 1, tags: ['b', 'c'] };
    expect(lines(crd.validate({ spec }))).toEqual([
      'spec: Invalid value: first',
      'spec: Invalid value: second',
      'spec: Invalid value: third',
    ]);
    expect(crd.validate({ spec: { n: 2, tags: ['a'] } })).toEqual([]);
  });
});
