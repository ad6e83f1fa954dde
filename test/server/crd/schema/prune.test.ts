/**
 * Pruning of unknown fields (apiextensions-apiserver pruning/algorithm.go `PruneWithOptions`
 * with `TrackUnknownFieldPaths`): what is dropped, what is kept, and the sorted paths returned.
 */
import { describe, expect, it } from 'vitest';
import { pruneUnknownFields } from '../../../../src/server/crd/schema/prune.js';
import { compileStructural } from '../../../../src/server/crd/schema/structural.js';

const schema = compileStructural({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        selector: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { key: { type: 'string' } } },
        },
        raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        half: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { inner: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        anything: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
});

describe('CRD pruning', () => {
  it('keeps apiVersion, kind and metadata at the root without reporting them, and drops unknown root fields', () => {
    const obj: Record<string, unknown> = {
      apiVersion: 'x.io/v1',
      kind: 'X',
      metadata: { name: 'a', weird: 1 },
      extra: true,
    };
    expect(pruneUnknownFields(obj, schema)).toEqual(['extra']);
    expect(obj).toEqual({ apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a', weird: 1 } });
  });

  it('drops unknown nested fields, inside list items too, and returns the paths sorted', () => {
    const obj = {
      spec: {
        size: 1,
        zzz: 1,
        items: [{ name: 'a', bad: 1 }, { name: 'b' }, { color: 'x' }],
        aaa: { deep: true },
      },
      status: { ready: true, phase: 'Up' },
    };
    expect(pruneUnknownFields(obj, schema)).toEqual([
      'spec.aaa',
      'spec.items[0].bad',
      'spec.items[2].color',
      'spec.zzz',
      'status.phase',
    ]);
    expect(obj).toEqual({
      spec: { size: 1, items: [{ name: 'a' }, { name: 'b' }, {}] },
      status: { ready: true },
    });
  });

  it('keeps every key under additionalProperties and prunes inside their values', () => {
    const obj = { spec: { labels: { a: 'b', c: 'd' }, selector: { one: { key: 'k', stray: 1 } } } };
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.selector.one.stray']);
    expect(obj.spec.labels).toEqual({ a: 'b', c: 'd' });
    expect(obj.spec.selector).toEqual({ one: { key: 'k' } });
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields but prunes the properties it specifies', () => {
    const obj = {
      spec: {
        raw: { any: { thing: [1, 2] } },
        half: { free: 1, inner: { a: 'x', b: 'y' } },
        anything: [{ z: 1 }],
      },
    };
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.half.inner.b']);
    expect(obj.spec).toEqual({
      raw: { any: { thing: [1, 2] } },
      half: { free: 1, inner: { a: 'x' } },
      anything: [{ z: 1 }],
    });
  });

  it('keeps apiVersion, kind and metadata of an embedded resource, and prunes its other unknown fields', () => {
    const obj = {
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { labels: { a: 'b' } },
          spec: { x: 'y', q: 1 },
          other: 2,
        },
      },
    };
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.template.other', 'spec.template.spec.q']);
    expect(obj.spec.template).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { labels: { a: 'b' } },
      spec: { x: 'y' },
    });
  });

  it('reports apiVersion, kind and metadata when they are unknown below the root', () => {
    const obj = { spec: { items: [{ name: 'a', kind: 'K' }] } };
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.items[0].kind']);
  });

  it('prunes the meta fields of a value that is not a resource, reporting them only below its top (as upstream)', () => {
    const status = { ready: true, kind: 'x' };
    expect(pruneUnknownFields(status, schema.properties?.get('status'), { isResourceRoot: false })).toEqual(
      [],
    );
    expect(status).toEqual({ ready: true });
  });

  it('with no schema at all keeps only the meta fields at the root', () => {
    const obj = { apiVersion: 'v1', kind: 'X', metadata: {}, spec: { a: 1 } };
    expect(pruneUnknownFields(obj, undefined)).toEqual(['spec']);
    expect(obj).toEqual({ apiVersion: 'v1', kind: 'X', metadata: {} });
  });
});
