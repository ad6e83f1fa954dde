/**
 * Embedded resources (objectmeta/validation.go `Validate`), format ranges (values.go
 * `IsValueValidAgainstRange`), the CEL gate (strategy.go `hasBlockingErr`) and the compiled
 * facade (schema-engine.ts) in the order the custom resource handler applies them.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchema } from '../../../../src/server/crd/schema/engine.js';

const crd = compileCrdSchema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        count: { type: 'integer', format: 'int32', default: 1 },
        ratio: { type: 'number', format: 'float' },
        big: { type: 'integer', format: 'int64' },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        name: { type: 'string', enum: ['a', 'b'] },
      },
      'x-kubernetes-validations': [{ rule: 'true' }],
    },
  },
});
const texts = (obj: unknown, cel = false) =>
  crd.validate(obj, cel ? { cel: () => [] } : {}).map((e) => `${e.field}: ${e.message}`);

describe('embedded resources', () => {
  it('requires apiVersion and kind of an embedded object', () => {
    expect(texts({ spec: { template: { metadata: { name: 'x' } } } })).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
    ]);
  });

  it('checks apiVersion, kind and metadata of an embedded object', () => {
    const template = {
      apiVersion: 'a/b/c',
      kind: 'Not_A_Kind',
      metadata: { name: 'a/b', labels: { 'bad key': 'v' } },
    };
    expect(texts({ spec: { template } })).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.template.kind: Invalid value: "Not_A_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      `spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
      `spec.template.metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('accepts a well-formed embedded object, with a mixed-case kind and no name', () => {
    expect(
      texts({ spec: { template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {} } } }),
    ).toEqual([]);
  });

  it('refuses metadata that is not an object', () => {
    expect(texts({ spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: 'x' } } })).toEqual([
      'spec.template.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta',
    ]);
  });
});

describe('format ranges', () => {
  it('refuses an int32 out of range with kube-openapi’s pathless message', () => {
    expect(texts({ spec: { count: 2 ** 31 } })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.count',
    ]);
    expect(texts({ spec: { count: 2 ** 31 - 1, big: 2 ** 40 } })).toEqual([]);
  });

  it('refuses a float beyond float32', () => {
    expect(texts({ spec: { ratio: 1e39 } })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type number with format float in spec.ratio',
    ]);
  });
});

describe('the CEL gate', () => {
  it('runs the hook when nothing blocks it, and says it was skipped after a blocking error', () => {
    expect(texts({ spec: { name: 'a' } }, true)).toEqual([]);
    expect(texts({ spec: { name: 'c' } }, true)).toEqual([
      'spec.name: Unsupported value: "c": supported values: "a", "b"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });
});

describe('compileCrdSchema', () => {
  it('prunes (unknown fields, then disallowed nulls), defaults, then validates, as the handler does', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'x.io/v1',
      kind: 'X',
      spec: { count: null, ratio: null, junk: 1 },
    };
    expect(crd.prune(obj)).toEqual(['spec.junk']);
    expect(obj.spec).toEqual({ count: null });
    crd.default(obj);
    expect(obj.spec).toEqual({ count: 1 });
    expect(crd.validate(obj)).toEqual([]);
  });
});

describe('ObjectMeta coercion (compileCrdSchema.prune)', () => {
  it('drops unknown and malformed fields of the object’s metadata, naming the unknown ones first', () => {
    const obj: Record<string, any> = {
      apiVersion: 'x.io/v1',
      kind: 'X',
      metadata: { name: 'a', labels: { a: 'b' }, colour: 'red', generation: 'one' },
      spec: { junk: 1 },
    };
    expect(crd.prune(obj)).toEqual(['metadata.colour', 'spec.junk']);
    expect(obj.metadata).toEqual({ name: 'a', labels: { a: 'b' } });
  });

  it('coerces an embedded resource’s metadata and names its unknown fields under its path', () => {
    const obj: Record<string, any> = {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 7,
          metadata: {
            name: 'p',
            ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', extra: 1 }],
            shade: 1,
          },
          anything: { kept: true },
        },
      },
    };
    expect(crd.prune(obj)).toEqual([
      'spec.template.metadata.ownerReferences[0].extra',
      'spec.template.metadata.shade',
    ]);
    expect(obj.spec.template).toEqual({
      apiVersion: 'v1',
      metadata: { name: 'p', ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u' }] },
      anything: { kept: true },
    });
  });
});
