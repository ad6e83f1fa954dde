/**
 * Defaulting of custom objects (apiextensions-apiserver defaulting/algorithm.go `Default`,
 * prunenulls.go `PruneNonNullableNullsWithoutDefaults`).
 */
import { describe, expect, it } from 'vitest';
import { applyDefaults, pruneNonNullableNulls } from '../../../../src/server/crd/schema/default.js';
import { compileStructural } from '../../../../src/server/crd/schema/structural.js';

const schema = compileStructural({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'auto' },
        note: { type: 'string', nullable: true, default: 'n' },
        strategy: {
          type: 'object',
          default: { type: 'Rolling' },
          properties: { type: { type: 'string' }, maxSurge: { type: 'integer', default: 25 } },
        },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            default: { name: 'default' },
            properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } },
          },
        },
        limits: { type: 'object', additionalProperties: { type: 'string', default: 'none' } },
        optional: { type: 'string' },
      },
    },
  },
});

describe('CRD defaulting', () => {
  it('defaults absent properties from the outside in: a defaulted object gets its own defaults', () => {
    const obj: Record<string, unknown> = { kind: 'X' };
    applyDefaults(obj, schema);
    expect(obj).toEqual({
      kind: 'X',
      spec: { replicas: 1, mode: 'auto', note: 'n', strategy: { type: 'Rolling', maxSurge: 25 } },
    });
  });

  it('leaves values that are set, and replaces a null only where the schema is not nullable', () => {
    const obj = { spec: { replicas: 3, mode: null, note: null, strategy: { type: 'Recreate' } } };
    applyDefaults(obj, schema);
    expect(obj.spec).toEqual({
      replicas: 3,
      mode: 'auto',
      note: null,
      strategy: { type: 'Recreate', maxSurge: 25 },
    });
  });

  it('defaults inside list items and replaces null items with the items default', () => {
    const obj = { spec: { ports: [{ name: 'http' }, null, { name: 'x', protocol: 'UDP' }] } };
    applyDefaults(obj, schema);
    expect(obj.spec.ports).toEqual([
      { name: 'http', protocol: 'TCP' },
      { name: 'default', protocol: 'TCP' },
      { name: 'x', protocol: 'UDP' },
    ]);
  });

  it('replaces null map values with the additionalProperties default', () => {
    const obj = { spec: { limits: { cpu: null, mem: '1Gi' } } };
    applyDefaults(obj, schema);
    expect(obj.spec.limits).toEqual({ cpu: 'none', mem: '1Gi' });
  });

  it('gives every object its own copy of a default', () => {
    const a: Record<string, { strategy: { type: string } }> = {};
    const b: Record<string, { strategy: { type: string } }> = {};
    applyDefaults(a, schema);
    applyDefaults(b, schema);
    a.spec!.strategy.type = 'changed';
    expect(b.spec!.strategy.type).toBe('Rolling');
  });

  it('drops the nulls no default replaces where the schema is not nullable (the decoder, before defaulting)', () => {
    const obj = { spec: { optional: null, note: null, unknown: null } };
    pruneNonNullableNulls(obj, schema);
    applyDefaults(obj, schema);
    expect(obj.spec).toEqual({
      note: null,
      unknown: null,
      replicas: 1,
      mode: 'auto',
      strategy: { type: 'Rolling', maxSurge: 25 },
    });
  });
});
