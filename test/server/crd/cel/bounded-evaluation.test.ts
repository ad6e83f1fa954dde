/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { lines, specSchema } from './fixture.js';

describe('bounded evaluation', () => {
  it('a pathological rule stops at the per-call limit', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { l: { type: 'array', maxItems: 1000, items: { type: 'integer' } } },
          'x-kubernetes-validations': [
            { rule: 'self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))' },
            { rule: 'false' },
          ],
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    // Run to the end, 10^9 evaluations: the test's timeout would catch it.
    const errs = lines(crd.validate({ spec: { l: Array.from({ length: 1000 }, (_, i) => i) } }));
    expect(errs).toEqual([
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))',
    ]);
  });
  it('a backtracking pattern runs in linear time, as in RE2', () => {
    const schema = specSchema([{ rule: "self.text.matches('(a+)+$')" }], { text: { type: 'string' } });
    // Backtracking on 5,000 a's never ends: the test's timeout would catch it.
    const errs = lines(compileCrdSchemaWithCel(schema).validate({ spec: { text: `${'a'.repeat(5000)}b` } }));
    expect(errs).toEqual([`spec: Invalid value: failed rule: self.text.matches('(a+)+$')`]);
  });

  it('a schema pattern backtracking would take seconds on runs in linear time too', () => {
    const schema = specSchema([], { text: { type: 'string', pattern: '^(a+)+$' } });
    // Backtracking, 2^40 steps: the test's timeout would catch it.
    const errs = lines(compileCrdSchemaWithCel(schema).validate({ spec: { text: `${'a'.repeat(40)}b` } }));
    expect(errs).toEqual([
      `spec.text: Invalid value: "${'a'.repeat(40)}b": spec.text in body should match '^(a+)+$'`,
    ]);
  });

  it('the request budget is shared by all nodes', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            l: {
              type: 'array',
              items: {
                type: 'array',
                maxItems: 300,
                items: { type: 'integer' },
                'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, a + b >= 0))' }],
              },
            },
          },
        },
      },
    };
    const row = Array.from({ length: 300 }, (_, i) => i);
    const errs = lines(
      compileCrdSchemaWithCel(schema).validate({ spec: { l: Array.from({ length: 20 }, () => row) } }),
    );
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(
      /^spec\.l\[\d+\]: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run$/,
    );
  });
});
