import { describe, expect, it } from 'vitest';
import { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from '../../../src/protocol/patch/jsonpatch.js';
import { StatusError } from '../../../src/protocol/status.js';

/** The StatusError a call throws (fails the test when nothing is thrown). */
function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('expected a StatusError');
}

// RFC 6902 Appendix A (A.13, a duplicate "op" member, is a JSON parsing matter and not reachable here).
const appendix: Array<[string, unknown, unknown[], unknown]> = [
  [
    'A.1 add an object member',
    { foo: 'bar' },
    [{ op: 'add', path: '/baz', value: 'qux' }],
    { baz: 'qux', foo: 'bar' },
  ],
  [
    'A.2 add an array element',
    { foo: ['bar', 'baz'] },
    [{ op: 'add', path: '/foo/1', value: 'qux' }],
    { foo: ['bar', 'qux', 'baz'] },
  ],
  [
    'A.3 remove an object member',
    { baz: 'qux', foo: 'bar' },
    [{ op: 'remove', path: '/baz' }],
    { foo: 'bar' },
  ],
  [
    'A.4 remove an array element',
    { foo: ['bar', 'qux', 'baz'] },
    [{ op: 'remove', path: '/foo/1' }],
    { foo: ['bar', 'baz'] },
  ],
  [
    'A.5 replace a value',
    { baz: 'qux', foo: 'bar' },
    [{ op: 'replace', path: '/baz', value: 'boo' }],
    { baz: 'boo', foo: 'bar' },
  ],
  [
    'A.6 move a value',
    { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  ],
  [
    'A.7 move an array element',
    { foo: ['all', 'grass', 'cows', 'eat'] },
    [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    { foo: ['all', 'cows', 'eat', 'grass'] },
  ],
  [
    'A.8 test a value: success',
    { baz: 'qux', foo: ['a', 2, 'c'] },
    [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    { baz: 'qux', foo: ['a', 2, 'c'] },
  ],
  [
    'A.10 add a nested member object',
    { foo: 'bar' },
    [{ op: 'add', path: '/child', value: { grandchild: {} } }],
    { foo: 'bar', child: { grandchild: {} } },
  ],
  [
    'A.11 ignore unrecognized elements',
    { foo: 'bar' },
    [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
    { foo: 'bar', baz: 'qux' },
  ],
  [
    'A.14 ~ escape ordering',
    { '/': 9, '~1': 10 },
    [{ op: 'test', path: '/~01', value: 10 }],
    { '/': 9, '~1': 10 },
  ],
  [
    'A.16 add an array value',
    { foo: ['bar'] },
    [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
    { foo: ['bar', ['abc', 'def']] },
  ],
  ['copy', { a: { b: [1] } }, [{ op: 'copy', from: '/a/b', path: '/c' }], { a: { b: [1] }, c: [1] }],
  ['replace the root', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
  ['add at the root', { a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }], { b: 2 }],
  ['~1 in a key', { a: {} }, [{ op: 'add', path: '/a/x~1y', value: 1 }], { a: { 'x/y': 1 } }],
  ['move onto itself', { a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 }],
  ['test null', { a: null }, [{ op: 'test', path: '/a', value: null }], { a: null }],
  [
    'test compares objects regardless of key order',
    { a: { x: 1, y: [1, 2] } },
    [{ op: 'test', path: '/a', value: { y: [1, 2], x: 1 } }],
    { a: { x: 1, y: [1, 2] } },
  ],
  [
    'kubectl-style label removal with an escaped key',
    { metadata: { labels: { 'app.kubernetes.io/name': 'web', a: 'b' } } },
    [{ op: 'remove', path: '/metadata/labels/app.kubernetes.io~1name' }],
    { metadata: { labels: { a: 'b' } } },
  ],
];

// [name, target, ops, code, message fragment]
const failures: Array<[string, unknown, unknown, number, string]> = [
  [
    'A.9 test a value: error',
    { baz: 'qux' },
    [{ op: 'test', path: '/baz', value: 'bar' }],
    422,
    'op 0 (test) at "/baz"',
  ],
  [
    'A.12 add to a nonexistent target',
    { foo: 'bar' },
    [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    422,
    '"/baz" does not exist',
  ],
  [
    'A.15 string vs number',
    { '/': 9, '~1': 10 },
    [{ op: 'test', path: '/~01', value: '10' }],
    422,
    'test failed',
  ],
  [
    'remove a missing key',
    { a: 1 },
    [
      { op: 'test', path: '/a', value: 1 },
      { op: 'remove', path: '/b' },
    ],
    422,
    'op 1 (remove) at "/b"',
  ],
  ['replace a missing key', { a: 1 }, [{ op: 'replace', path: '/b', value: 1 }], 422, 'does not exist'],
  ['index out of range', { a: [1] }, [{ op: 'add', path: '/a/2', value: 1 }], 422, 'out of range'],
  ['remove past the end', { a: [1] }, [{ op: 'remove', path: '/a/1' }], 422, 'out of range'],
  ['"-" only for add', { a: [1] }, [{ op: 'remove', path: '/a/-' }], 422, 'not a valid array index'],
  [
    'leading zero index',
    { a: [1, 2] },
    [{ op: 'replace', path: '/a/01', value: 0 }],
    422,
    'not a valid array index',
  ],
  ['into a primitive', { a: 1 }, [{ op: 'add', path: '/a/b', value: 1 }], 422, '"/a/b" does not exist'],
  ['copy from a missing path', {}, [{ op: 'copy', from: '/x', path: '/y' }], 422, 'from "/x"'],
  ['remove the root', { a: 1 }, [{ op: 'remove', path: '' }], 422, 'whole document'],
  ['not an array', { a: 1 }, { op: 'add', path: '/a', value: 1 }, 400, 'JSON array'],
  ['op not an object', {}, [1], 400, 'op 0 must be a JSON object'],
  ['unknown op', {}, [{ op: 'merge', path: '/a' }], 400, 'unknown op "merge"'],
  ['missing op', {}, [{ path: '/a' }], 400, 'no "op"'],
  ['missing path', {}, [{ op: 'add', value: 1 }], 400, 'no "path"'],
  ['missing value', {}, [{ op: 'add', path: '/a' }], 400, 'op 0 (add) at "/a" has no "value"'],
  ['missing from', {}, [{ op: 'move', path: '/a' }], 400, 'no "from"'],
  ['pointer without a leading slash', {}, [{ op: 'add', path: 'a', value: 1 }], 400, 'start with "/"'],
  ['bad escape', {}, [{ op: 'add', path: '/a~2', value: 1 }], 400, 'bad escape'],
  ['move into a child', { a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], 400, 'own children'],
  [
    'a later malformed op fails before any op runs',
    { a: 1 },
    [
      { op: 'remove', path: '/zzz' },
      { op: 'nope', path: '' },
    ],
    400,
    'op 1',
  ],
];

describe('applyJsonPatch', () => {
  it.each(appendix)('%s', (_name, target, ops, expected) => {
    expect(applyJsonPatch(target, ops)).toEqual(expected);
  });

  it.each(failures)('rejects: %s', (_name, target, ops, code, fragment) => {
    const err = thrown(() => applyJsonPatch(target, ops));
    expect(err.code).toBe(code);
    expect(err.reason).toBe(code === 400 ? 'BadRequest' : 'Invalid');
    expect(err.message).toContain(fragment);
  });

  it('refuses more than the maximum number of operations with 413', () => {
    const ops = Array.from({ length: MAX_JSON_PATCH_OPERATIONS + 1 }, () => ({
      op: 'test',
      path: '',
      value: {},
    }));
    const err = thrown(() => applyJsonPatch({}, ops));
    expect(err.code).toBe(413);
  });

  it('is pure and all-or-nothing: a failing op leaves the target as it was', () => {
    const target = { a: [1, 2], b: { c: 1 } };
    const ops = [
      { op: 'add', path: '/a/-', value: { x: 1 } },
      { op: 'remove', path: '/b/c' },
      { op: 'test', path: '/a/0', value: 99 },
    ];
    const [t0, o0] = [structuredClone(target), structuredClone(ops)];
    thrown(() => applyJsonPatch(target, ops));
    expect(target).toEqual(t0);
    expect(ops).toEqual(o0);

    const ok = ops.slice(0, 2);
    const result = applyJsonPatch(target, ok) as { a: unknown[] };
    expect(result).toEqual({ a: [1, 2, { x: 1 }], b: {} });
    expect(target).toEqual(t0);
    expect(result.a[2]).not.toBe(ok[0].value);
  });

  it('keeps key order on replace', () => {
    const result = applyJsonPatch({ a: 1, b: 2, c: 3 }, [{ op: 'replace', path: '/b', value: 9 }]);
    expect(Object.keys(result as object)).toEqual(['a', 'b', 'c']);
  });
});
