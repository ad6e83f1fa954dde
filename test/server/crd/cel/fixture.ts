/** What the CEL rule suites share: a spec schema carrying rules, and a run of them over a spec. */
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';

export const lines = (errs: { field: string; message: string }[]): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);

export function specSchema(rules: unknown[], props: Record<string, CrdSchemaProps> = {}): CrdSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules,
        properties: {
          minReplicas: { type: 'integer' },
          maxReplicas: { type: 'integer' },
          ratio: { type: 'number' },
          name: { type: 'string', maxLength: 63 },
          items: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 } },
          labels: {
            type: 'object',
            maxProperties: 10,
            additionalProperties: { type: 'string', maxLength: 63 },
          },
          ...props,
        },
      },
    },
  };
}
export const run = (rules: unknown[], spec: unknown, old?: unknown): string[] =>
  lines(
    compileCrdSchemaWithCel(specSchema(rules)).validate(
      { spec },
      old === undefined ? {} : { oldObject: { spec: old } },
    ),
  );
