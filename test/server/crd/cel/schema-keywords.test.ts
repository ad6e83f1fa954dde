/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { lines } from './fixture.js';

describe('allOf', () => {
  it("an allOf branch's rules run on the node's value", () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'integer' } },
          allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a > 1', message: 'a must exceed 1' }] }],
        },
      },
    };
    expect(lines(compileCrdSchemaWithCel(schema).validate({ spec: { a: 1 } }))).toEqual([
      'spec: Invalid value: a must exceed 1',
    ]);
  });
});

describe('formatted strings', () => {
  it('date-time is a timestamp, duration a duration, byte bytes', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            notAfter: { type: 'string', format: 'date-time' },
            timeout: { type: 'string', format: 'duration' },
            data: { type: 'string', format: 'byte' },
          },
          'x-kubernetes-validations': [
            { rule: 'self.notAfter > timestamp("2024-01-01T00:00:00Z")', message: 'too early' },
            {
              rule: 'self.timeout <= duration("1h") && duration(self.timeout) > duration("1s")',
              message: 'timeout',
            },
            { rule: 'size(self.data) == 5', message: 'data' },
          ],
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    expect(
      lines(crd.validate({ spec: { notAfter: '2025-05-01T10:00:00Z', timeout: '30m', data: 'aGVsbG8=' } })),
    ).toEqual([]);
    expect(
      lines(crd.validate({ spec: { notAfter: '2023-05-01T10:00:00Z', timeout: '2h', data: 'aGk=' } })),
    ).toEqual([
      'spec: Invalid value: too early',
      'spec: Invalid value: timeout',
      'spec: Invalid value: data',
    ]);
  });
});
