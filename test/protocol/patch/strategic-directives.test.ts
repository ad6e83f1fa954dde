import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { liveDeployment, noDirectives, type Obj, thrown } from './strategic-fixture.js';

describe('applyStrategicMergePatch: directives', () => {
  const cases: Array<[string, Obj, Obj, Obj]> = [
    [
      '$patch: replace on a map',
      { spec: { nodeSelector: { a: '1', b: '2' } } },
      { spec: { nodeSelector: { $patch: 'replace', c: '3' } } },
      { spec: { nodeSelector: { c: '3' } } },
    ],
    [
      '$patch: delete on a map empties it',
      { spec: { nodeSelector: { a: '1' }, x: 1 } },
      { spec: { nodeSelector: { $patch: 'delete' } } },
      { spec: { nodeSelector: {}, x: 1 } },
    ],
    [
      '$patch: merge on a map is the default',
      { spec: { nodeSelector: { a: '1' } } },
      { spec: { nodeSelector: { $patch: 'merge', b: '2' } } },
      { spec: { nodeSelector: { a: '1', b: '2' } } },
    ],
    [
      '$patch: replace at the root',
      { a: 1, b: { c: 1 } },
      { $patch: 'replace', b: { d: 2 } },
      { b: { d: 2 } },
    ],
    [
      '{"$patch":"replace"} element replaces a merge list',
      { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      { spec: { containers: [{ name: 'c', env: [{ name: 'X', value: null }] }, { $patch: 'replace' }] } },
      { spec: { containers: [{ name: 'c', env: [{ name: 'X' }] }] } },
    ],
    [
      '$setElementOrder reorders, server-only items keep their relative place',
      { spec: { containers: [{ name: 'a' }, { name: 'x' }, { name: 'b' }] } },
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
      { spec: { containers: [{ name: 'x' }, { name: 'b' }, { name: 'a' }] } },
    ],
    [
      '$setElementOrder with a change and an addition',
      {
        spec: {
          containers: [
            { name: 'a', image: '1' },
            { name: 'b', image: '1' },
          ],
        },
      },
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'n' }, { name: 'a' }],
          containers: [
            { name: 'b', image: '2' },
            { name: 'n', image: '1' },
          ],
        },
      },
      {
        spec: {
          containers: [
            { name: 'b', image: '2' },
            { name: 'n', image: '1' },
            { name: 'a', image: '1' },
          ],
        },
      },
    ],
    [
      '$setElementOrder on a primitive merge list',
      { metadata: { finalizers: ['a', 'b', 'c'] } },
      { metadata: { '$setElementOrder/finalizers': ['c', 'a'] } },
      { metadata: { finalizers: ['b', 'c', 'a'] } },
    ],
    [
      '$setElementOrder for a list the object does not have',
      { spec: {} },
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
          containers: [{ name: 'b' }, { $patch: 'delete', name: 'z' }, { name: 'a' }],
        },
      },
      { spec: { containers: [{ name: 'b' }, { name: 'a' }] } },
    ],
    [
      '$retainKeys clears unlisted keys (volume source switch)',
      { spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
      { spec: { volumes: [{ name: 'v', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } },
      { spec: { volumes: [{ name: 'v', configMap: { name: 'cm' } }] } },
    ],
    [
      'a map patch onto a missing key drops nulls and directives',
      {},
      {
        spec: {
          a: null,
          b: { c: null, $patch: 'merge' },
          containers: [{ name: 'x' }, { $patch: 'delete', name: 'y' }],
        },
      },
      { spec: { b: {}, containers: [{ name: 'x' }] } },
    ],
    ['null for a missing key is a no-op', { a: 1 }, { b: null }, { a: 1 }],
  ];

  it.each(cases)('%s', (_name, target, patch, expected) => {
    const result = applyStrategicMergePatch(target, patch, 'Pod');
    expect(result).toEqual(expected);
    expect(noDirectives(result)).toBe(true);
  });

  it('$retainKeys on Deployment spec.strategy', () => {
    const body = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as { spec: Obj };
    expect(result.spec.strategy).toEqual({ type: 'Recreate' });
  });

  const rejects: Array<[string, Obj, string]> = [
    ['not an object', [] as unknown as Obj, 'must be a JSON object'],
    [
      'unknown $patch on a map',
      { spec: { $patch: 'explode' } },
      'unknown $patch directive "explode" at spec',
    ],
    [
      'unknown $patch in a list',
      { spec: { containers: [{ name: 'a', $patch: 'x' }] } },
      'spec.containers[0]',
    ],
    [
      'merge-list element without its key',
      { spec: { containers: [{ image: 'x' }] } },
      'missing merge key "name"',
    ],
    [
      'delete without the merge key',
      { spec: { containers: [{ $patch: 'delete' }] } },
      'missing merge key "name"',
    ],
    ['merge-list element not an object', { spec: { containers: ['a'] } }, 'must be objects'],
    ['object in a primitive merge list', { metadata: { finalizers: [{}] } }, 'cannot hold object'],
    ['$setElementOrder not a list', { spec: { '$setElementOrder/containers': 'a' } }, 'must be a list'],
    [
      '$setElementOrder without a field',
      { spec: { $setElementOrder: [] } },
      'expected "$setElementOrder/<list field>"',
    ],
    [
      '$setElementOrder item without the key',
      { spec: { '$setElementOrder/containers': [{}] } },
      'with "name"',
    ],
    [
      '$setElementOrder out of step with the patch list',
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
          containers: [{ name: 'b' }, { name: 'a' }],
        },
      },
      'does not match',
    ],
    [
      '$deleteFromPrimitiveList not a list',
      { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } },
      'must be a list',
    ],
    ['$retainKeys not a list', { spec: { $retainKeys: 'a' } }, '$retainKeys at spec must be a list'],
    ['a key not in $retainKeys', { spec: { $retainKeys: ['a'], b: 1 } }, 'field "b" at spec'],
  ];

  it.each(rejects)('rejects with 400: %s', (_name, patch, fragment) => {
    const target = { spec: { containers: [{ name: 'a' }] }, metadata: { finalizers: ['x'] } };
    const err = thrown(() => applyStrategicMergePatch(target, patch, 'Pod'));
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toContain(fragment);
  });
});
