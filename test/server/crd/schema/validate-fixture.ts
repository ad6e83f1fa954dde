/** The validation errors of a value under a one-field schema, for the custom-object validation suites. */
import { type CrdSchemaProps, compileStructural } from '../../../../src/server/crd/schema/structural.js';
import { validateCustomObject } from '../../../../src/server/crd/schema/validate.js';

/** The full texts (`field: message`) of validating `spec` under a schema for `spec.<field>`. */
export function errorsOf(field: CrdSchemaProps, value: unknown, extra: CrdSchemaProps = {}): string[] {
  const schema = compileStructural({
    type: 'object',
    properties: { spec: { type: 'object', properties: { f: field }, ...extra } },
  });
  const obj = { apiVersion: 'x.io/v1', kind: 'X', spec: value === undefined ? {} : { f: value } };
  return validateCustomObject(schema, obj).map((e) => `${e.field}: ${e.message}`);
}
