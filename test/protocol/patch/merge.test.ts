import { describe, expect, it } from 'vitest';
import { applyMergePatch, cloneJson, jsonEqual } from '../../../src/protocol/patch/merge.js';

// RFC 7386 Appendix A, in order.
const rfc7386: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 'web', a: 'b' } },
  spec: {},
};
const deploy = {
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: { replicas: 1, template: { spec: {} } },
};

// The merge-patch bodies kubectl sends (kubectl-needs.md §9).
const kubectl: Array<[string, unknown, unknown, unknown]> = [
  ['scale', deploy, { spec: { replicas: 3 } }, { ...deploy, spec: { ...deploy.spec, replicas: 3 } }],
  [
    'label a=c',
    pod,
    { metadata: { labels: { a: 'c' } } },
    { ...pod, metadata: { name: 'p', labels: { app: 'web', a: 'c' } } },
  ],
  [
    'label a-',
    pod,
    { metadata: { labels: { a: null } } },
    { ...pod, metadata: { name: 'p', labels: { app: 'web' } } },
  ],
  [
    'annotate on an object without annotations',
    pod,
    { metadata: { annotations: { note: 'x' } } },
    { ...pod, metadata: { ...pod.metadata, annotations: { note: 'x' } } },
  ],
];

describe('applyMergePatch', () => {
  it.each(rfc7386)('RFC 7386 example %#', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('applies the RFC 7386 section 3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = {
      title: 'Hello!',
      phoneNumber: '+01-123-456-7890',
      author: { familyName: null },
      tags: ['example'],
    };
    expect(applyMergePatch(target, patch)).toEqual({
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  it.each(kubectl)('kubectl %s', (_name, target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('is pure: inputs stay deep-equal and the result shares no structure with them', () => {
    const target = { a: { b: [1, { c: 2 }] }, keep: { x: 1 } };
    const patch = { a: { d: { e: [3] } }, n: { m: 1 } };
    const [t0, p0] = [structuredClone(target), structuredClone(patch)];
    const result = applyMergePatch(target, patch) as {
      a: { b: unknown[]; d: { e: number[] } };
      keep: object;
      n: object;
    };
    expect(target).toEqual(t0);
    expect(patch).toEqual(p0);
    expect(result.keep).not.toBe(target.keep);
    expect(result.a.b).not.toBe(target.a.b);
    expect(result.a.d.e).not.toBe(patch.a.d.e);
    expect(result.n).not.toBe(patch.n);
  });

  it('stores a "__proto__" key as data instead of changing the prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('JSON helpers', () => {
  it('jsonEqual ignores key order but not array order', () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
  });

  it('cloneJson copies deeply', () => {
    const value = { a: [{ b: 1 }] };
    const copy = cloneJson(value);
    expect(copy).toEqual(value);
    expect(copy.a[0]).not.toBe(value.a[0]);
  });
});
