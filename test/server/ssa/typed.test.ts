import { describe, expect, it } from 'vitest';
import { compare } from '../../../src/server/ssa/compare.js';
import { fieldsV1ToSet, setToFieldsV1 } from '../../../src/server/ssa/fields-v1.js';
import { merge } from '../../../src/server/ssa/merge.js';
import { SCALAR, UNTYPED } from '../../../src/server/ssa/merge-schema.js';
import { extractItems, removeItems } from '../../../src/server/ssa/remove.js';
import { toFieldSet } from '../../../src/server/ssa/to-field-set.js';
import { TypedValueError } from '../../../src/server/ssa/typed-node.js';
import {
  atomicList,
  DEPLOYMENT,
  deployment,
  mapList,
  mapOf,
  setList,
  struct,
  UNTYPED_CR,
} from './schema-fixture.js';

const fv1 = (v: unknown, node = DEPLOYMENT) => setToFieldsV1(toFieldSet(v, node));

describe('toFieldSet', () => {
  it('a Deployment: granular labels, atomic selector, containers by name, ports by containerPort+protocol', () => {
    const d = deployment();
    // An applied set names a struct field or map only through what it sets ("." appears on list
    // items, which are members themselves), as kube-apiserver's Apply entries show.
    expect(fv1({ spec: d.spec, metadata: { labels: { app: 'web' } } })).toEqual({
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:name': {},
                'f:ports': {
                  'k:{"containerPort":80,"protocol":"TCP"}': {
                    '.': {},
                    'f:containerPort': {},
                    'f:protocol': {},
                  },
                },
              },
            },
          },
        },
      },
    });
  });

  it('set items as v:, an atomic map as one leaf, null and {} as members', () => {
    expect(
      fv1({
        metadata: { finalizers: ['b', 'a'] },
        spec: { template: { spec: { nodeSelector: { a: '1' } } }, paused: null, selector: {} },
      }),
    ).toEqual({
      'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } },
      'f:spec': { 'f:paused': {}, 'f:selector': {}, 'f:template': { 'f:spec': { 'f:nodeSelector': {} } } },
    });
  });

  it('an empty list owns nothing (smd inserts a key for null or {} only)', () => {
    expect(fv1({ metadata: { finalizers: [] } })).toEqual({});
  });

  it('untyped: every key a member, lists atomic', () => {
    expect(fv1({ spec: { a: { b: 1 }, l: [1, 2] } }, UNTYPED_CR)).toEqual({
      'f:spec': { 'f:a': { '.': {}, 'f:b': {} }, 'f:l': {} },
    });
  });

  it('refuses duplicate keys and items without keys, with smd messages', () => {
    const dup = {
      spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }, { image: 'x' }] } } },
    };
    try {
      toFieldSet(dup, DEPLOYMENT);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TypedValueError);
      expect((err as TypedValueError).message.split('\n')).toEqual([
        '.spec.template.spec.containers: element 2: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
        '.spec.template.spec.containers: duplicate entries for key [name="a"]',
      ]);
    }
    expect(() => toFieldSet({ metadata: { finalizers: ['a', 'a'] } }, DEPLOYMENT)).toThrow(
      'duplicate entries for key [="a"]',
    );
  });
});

describe('merge', () => {
  const SET_ROOT = struct({ setStr: setList(), setBool: setList(), setNumeric: setList() });
  // structured-merge-diff typed/merge_test.go, "set" triplets (Apache-2.0): lhs, rhs, expected.
  it.each([
    ['{"setStr":["a","b","c"]}', '{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":["a","b"]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":["a","b","c"]}', '{"setStr":[]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":[]}', '{"setStr":["a","b","c"]}', '{"setStr":["a","b","c"]}'],
    ['{"setStr":["a","b"]}', '{"setStr":["b","a"]}', '{"setStr":["b","a"]}'],
    [
      '{"setStr":["a","b","c","g","f"]}',
      '{"setStr":["c","d","e","f"]}',
      '{"setStr":["a","b","c","g","d","e","f"]}',
    ],
    ['{"setStr":["c","d","e","f"]}', '{"setStr":["a","c","e"]}', '{"setStr":["a","c","d","e","f"]}'],
    [
      '{"setStr":["a","b","c","x","y","z"]}',
      '{"setStr":["d","e","f","x","y","z"]}',
      '{"setStr":["a","b","c","d","e","f","x","y","z"]}',
    ],
    ['{"setStr":["c","a","g","f"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
    ['{"setStr":["a","b","c","d"]}', '{"setStr":["d","e","f","a"]}', '{"setStr":["b","c","d","e","f","a"]}'],
    [
      '{"setStr":["c","d","e","f","g","h","i","j"]}',
      '{"setStr":["2","h","3","e","4","k","l"]}',
      '{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
    ],
    [
      '{"setStr":["a","b","c","d","e","f","g","h","i","j"]}',
      '{"setStr":["1","b","2","h","3","e","4","k","l"]}',
      '{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}',
    ],
    ['{"setStr":["a","b","b"]}', '{"setStr":["c"]}', '{"setStr":["a","b","b","c"]}'],
    ['{"setStr":["a","b","b"]}', '{"setStr":["b"]}', '{"setStr":["a","b"]}'],
    ['{"setStr":["a","b","b"]}', '{"setStr":["a"]}', '{"setStr":["a","b","b"]}'],
    [
      '{"setStr":["a","b","c","d","e","c"]}',
      '{"setStr":["1","b","2","e","d"]}',
      '{"setStr":["a","1","b","c","2","e","c","d"]}',
    ],
    [
      '{"setStr":["a","b","c","d","e","c"]}',
      '{"setStr":["1","b","2","c","e","d"]}',
      '{"setStr":["a","1","b","2","c","e","d"]}',
    ],
    ['{"setStr":["a","a","b","b"]}', '{"setStr":["b","c","d"]}', '{"setStr":["a","a","b","c","d"]}'],
    ['{"setStr":["a","a","b","b"]}', '{"setStr":[]}', '{"setStr":["a","a","b","b"]}'],
    ['{"setBool":[true]}', '{"setBool":[false]}', '{"setBool":[true,false]}'],
    ['{"setNumeric":[1,2,3.14159]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
    ['{"setStr":["c","a","g","f","c","a"]}', '{"setStr":["c","f","a","g"]}', '{"setStr":["c","f","a","g"]}'],
    ['{"setNumeric":[1,2,3.14159,1,2]}', '{"setNumeric":[1,2,3]}', '{"setNumeric":[1,2,3.14159,3]}'],
    ['{"setBool":[true,false,true]}', '{"setBool":[true]}', '{"setBool":[true,false]}'],
  ])('smd set triplet %s + %s', (lhs, rhs, out) => {
    expect(merge(JSON.parse(lhs), JSON.parse(rhs), SET_ROOT)).toEqual(JSON.parse(out));
  });

  const ASSOC_ROOT = struct({
    list: mapList(
      ['key', 'id'],
      struct({ key: SCALAR, id: SCALAR, value: mapOf(SCALAR), bv: SCALAR, nv: SCALAR }),
    ),
    atomicList: atomicList(),
  });
  // structured-merge-diff typed/merge_test.go, "associative list" triplets (Apache-2.0).
  it.each([
    [
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
    ],
    [
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}',
      '{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":1}]}',
      '{"list":[{"key":"a","id":1},{"key":"a","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}',
    ],
    [
      '{"list":[{"key":"b","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"c","id":3},{"key":"b","id":2}]}',
      '{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}',
    ],
    [
      '{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}',
      '{"list":[{"key":"c","id":3},{"key":"a","id":1}]}',
      '{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}',
    ],
    ['{"atomicList":["a","a","a"]}', '{"atomicList":null}', '{"atomicList":null}'],
    ['{"atomicList":["a","b","c"]}', '{"atomicList":[]}', '{"atomicList":[]}'],
    ['{"atomicList":["a","a","a"]}', '{"atomicList":["a","a"]}', '{"atomicList":["a","a"]}'],
    [
      '{"list":[{"key":"a","id":1,"bv":true},{"key":"b","id":2},{"key":"a","id":1,"bv":false,"nv":2}]}',
      '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
      '{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}',
    ],
    [
      '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      '{"list":[]}',
      '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
    ],
    [
      '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
      '{}',
      '{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}',
    ],
  ])('smd associative-list triplet %s + %s', (lhs, rhs, out) => {
    expect(merge(JSON.parse(lhs), JSON.parse(rhs), ASSOC_ROOT)).toEqual(JSON.parse(out));
  });

  it('keyed lists merge item by item; the right wins on scalars and atomic maps', () => {
    const live = deployment();
    const out = merge(
      live,
      {
        spec: {
          selector: { matchLabels: { tier: 'x' } },
          template: {
            spec: {
              containers: [
                { name: 'sidecar', image: 'envoy' },
                { name: 'nginx', image: 'nginx:2' },
              ],
            },
          },
        },
      },
      DEPLOYMENT,
    ) as any;
    expect(out.spec.selector).toEqual({ matchLabels: { tier: 'x' } });
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'sidecar', image: 'envoy' },
      { name: 'nginx', image: 'nginx:2', ports: [{ containerPort: 80, protocol: 'TCP' }] },
    ]);
  });

  it('granular maps merge by key; atomic lists are replaced', () => {
    const node = struct({
      m: struct({}, { values: SCALAR }),
      l: { kind: 'list', relationship: 'atomic', keys: [], items: SCALAR },
    });
    expect(merge({ m: { a: 1, b: 2 }, l: [1, 2] }, { m: { b: 3, c: 4 }, l: [3] }, node)).toEqual({
      m: { a: 1, b: 3, c: 4 },
      l: [3],
    });
  });

  it('untyped values: objects merge, lists and scalars are replaced, a kind change takes the right', () => {
    expect(
      merge(
        { spec: { a: { x: 1 }, l: [1], s: { y: 1 } } },
        { spec: { a: { z: 2 }, l: [2], s: 5 } },
        UNTYPED_CR,
      ),
    ).toEqual({
      spec: { a: { x: 1, z: 2 }, l: [2], s: 5 },
    });
  });

  it('refuses duplicate keys on the right', () => {
    const node = struct({ l: mapList(['name'], struct({ name: SCALAR })) });
    expect(() => merge({ l: [{ name: 'a' }] }, { l: [{ name: 'b' }, { name: 'b' }] }, node)).toThrow(
      '.l: duplicate entries for key [name="b"]',
    );
  });
});

describe('compare', () => {
  it('added, modified and removed leaves; atomic maps as one leaf', () => {
    const a = deployment();
    const b = deployment({ replicas: 5, image: 'nginx:2' }) as any;
    b.spec.selector = { matchLabels: { app: 'other' } };
    delete b.metadata.labels;
    b.metadata.finalizers = ['x'];
    const c = compare(a, b, DEPLOYMENT);
    expect(c.modified.toString().split('\n')).toEqual([
      '.spec.replicas',
      '.spec.selector',
      '.spec.template.spec.containers[name="nginx"].image',
    ]);
    expect(c.added.toString().split('\n')).toEqual(['.metadata.finalizers', '.metadata.finalizers[="x"]']);
    expect(c.removed.toString().split('\n')).toEqual(['.metadata.labels', '.metadata.labels.app']);
  });

  it('the same value has no differences', () => {
    const c = compare(deployment(), deployment(), DEPLOYMENT);
    expect(c.added.empty() && c.modified.empty() && c.removed.empty()).toBe(true);
  });

  it('untyped: a map replaced by a scalar removes its keys and modifies the field', () => {
    const c = compare({ spec: { a: { x: 1 } } }, { spec: { a: 2 } }, UNTYPED_CR);
    expect(c.removed.toString()).toBe('.spec.a.x');
    expect(c.modified.toString()).toBe('.spec.a');
    void UNTYPED;
  });
});

describe('removeItems and extractItems', () => {
  const set = fieldsV1ToSet({
    'f:spec': {
      'f:replicas': {},
      'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { 'f:image': {} } } } },
    },
    'f:metadata': { 'f:labels': { 'f:app': {} } },
  });

  it('removes members and walks prefixes; an emptied map becomes null as smd leaves it', () => {
    const out = removeItems(deployment(), set, DEPLOYMENT) as any;
    expect(out.spec.replicas).toBeUndefined();
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] },
    ]);
    expect(out.metadata.labels).toBeNull();
    expect(out.metadata.name).toBe('web');
  });

  it('removes whole keyed items', () => {
    const s = fieldsV1ToSet({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': {} } } } },
    });
    const out = removeItems(deployment(), s, DEPLOYMENT) as any;
    expect(out.spec.template.spec.containers).toBeNull();
  });

  it('extracts only the set', () => {
    expect(extractItems(deployment(), set, DEPLOYMENT)).toEqual({
      metadata: { labels: { app: 'web' } },
      spec: { replicas: 3, template: { spec: { containers: [{ image: 'nginx:1.25' }] } } },
    });
  });
});

describe('key defaults (smd getAssociativeKeyDefault)', () => {
  const PORTS = struct({
    ports: {
      ...mapList(['containerPort', 'protocol'], struct({ containerPort: SCALAR, protocol: SCALAR })),
      keyDefaults: { protocol: 'TCP' },
    },
  });

  it('an item without a defaulted key field is keyed by the default, so it merges with the live item', () => {
    const live = { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] };
    expect(merge(live, { ports: [{ containerPort: 80 }] }, PORTS)).toEqual({
      ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }],
    });
    expect(setToFieldsV1(toFieldSet({ ports: [{ containerPort: 80 }] }, PORTS))).toEqual({
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
    });
  });
});

describe('atomic lists', () => {
  const NODE = struct({ args: { kind: 'list', relationship: 'atomic', keys: [], items: SCALAR } });

  it('compare as one leaf, are owned whole and removed whole', () => {
    expect(compare({ args: ['a'] }, { args: ['a', 'b'] }, NODE).modified.toString()).toBe('.args');
    expect(setToFieldsV1(toFieldSet({ args: ['a', 'b'] }, NODE))).toEqual({ 'f:args': {} });
    expect(removeItems({ args: ['a'], x: 1 }, fieldsV1ToSet({ 'f:args': {} }), NODE)).toEqual({ x: 1 });
  });
});

describe('items without their keys', () => {
  it('stay when removing (smd walks on with an element no set holds) and are not extracted', () => {
    const value = { spec: { template: { spec: { containers: [{ name: 'a' }, { image: 'x' }] } } } };
    const set = fieldsV1ToSet({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': {} } } } },
    });
    expect(removeItems(value, set, DEPLOYMENT)).toEqual({
      spec: { template: { spec: { containers: [{ image: 'x' }] } } },
    });
    expect(extractItems(value, set, DEPLOYMENT)).toEqual({
      spec: { template: { spec: { containers: [{ name: 'a' }] } } },
    });
  });
});
