import { describe, expect, it } from 'vitest';
import { FieldSet } from '../../../src/server/ssa/field-set.js';
import {
  FieldsV1Error,
  fieldsV1ToSet,
  parsePathElement,
  setToFieldsV1,
} from '../../../src/server/ssa/fields-v1.js';
import { rawHasAny, rawWithin, scanFieldsV1 } from '../../../src/server/ssa/fields-v1-raw.js';

import {
  compareElements,
  fieldElement as f,
  goJSON,
  indexElement,
  keyElement,
  pathToString,
  valueElement,
} from '../../../src/server/ssa/path-element.js';

const k = (fields: Record<string, unknown>) =>
  keyElement(Object.entries(fields).map(([name, value]) => ({ name, value })));

function roundTrip(text: string): string {
  return JSON.stringify(setToFieldsV1(fieldsV1ToSet(JSON.parse(text))));
}

describe('path elements', () => {
  it('writes each kind as smd serializes it, key fields sorted by name', () => {
    expect(f('spec').text).toBe('f:spec');
    expect(k({ protocol: 'TCP', containerPort: 80 }).text).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(valueElement('a<b').text).toBe('v:"a\\u003cb"'); // Go's encoder escapes HTML characters
    expect(valueElement(1.5).text).toBe('v:1.5');
    expect(indexElement(3).text).toBe('i:3');
    expect(goJSON({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  it('orders fields < keys < values < indexes; values numbers < strings < bools', () => {
    const list = [
      indexElement(1),
      valueElement(true),
      valueElement('aa'),
      valueElement(2),
      k({ name: 'x' }),
      f('b'),
      f('a'),
    ];
    expect(list.sort(compareElements).map((p) => p.text)).toEqual([
      'f:a',
      'f:b',
      'k:{"name":"x"}',
      'v:2',
      'v:"aa"',
      'v:true',
      'i:1',
    ]);
  });

  it('prints paths as smd Path.String', () => {
    expect(pathToString([f('spec'), f('containers'), k({ name: 'nginx' }), f('image')])).toBe(
      '.spec.containers[name="nginx"].image',
    );
    expect(pathToString([f('metadata'), f('finalizers'), valueElement('a')])).toBe(
      '.metadata.finalizers[="a"]',
    );
    expect(pathToString([f('args'), indexElement(0)])).toBe('.args[0]');
    expect(pathToString([f('ports'), k({ protocol: 'TCP', containerPort: 80 })])).toBe(
      '.ports[containerPort=80,protocol="TCP"]',
    );
  });

  it('parses elements and refuses malformed ones with smd messages', () => {
    expect(parsePathElement('k:{"protocol":"TCP","containerPort":80}')?.text).toBe(
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    expect(parsePathElement('x:what')).toBeUndefined();
    expect(() => parsePathElement('f')).toThrow('key must be 2 characters long:');
    expect(() => parsePathElement('fx')).toThrow('missing colon: fx');
    expect(() => parsePathElement('i:x')).toThrow(FieldsV1Error);
  });
});

describe('field sets', () => {
  const a = FieldSet.of([f('spec'), f('replicas')], [f('spec'), f('paused')], [f('metadata')]);
  const b = FieldSet.of([f('spec'), f('replicas')], [f('status')]);

  it('union, intersection, difference, has, empty, size', () => {
    expect(a.union(b).toString().split('\n')).toEqual([
      '.metadata',
      '.status',
      '.spec.paused',
      '.spec.replicas',
    ]);
    expect(a.intersection(b).toString()).toBe('.spec.replicas');
    expect(a.difference(b).toString().split('\n')).toEqual(['.metadata', '.spec.paused']);
    expect(a.has([f('spec'), f('replicas')])).toBe(true);
    expect(a.has([f('spec')])).toBe(false);
    expect(new FieldSet().empty()).toBe(true);
    expect(a.difference(a).empty()).toBe(true);
    expect(a.size()).toBe(3);
  });

  it('a member removes its subtree only in recursiveDifference', () => {
    const spec = FieldSet.of([f('spec')]);
    expect(a.difference(spec).has([f('spec'), f('replicas')])).toBe(true);
    expect(a.recursiveDifference(spec).toString()).toBe('.metadata');
  });

  it('leaves drops members that have children', () => {
    const s = FieldSet.of([f('spec')], [f('spec'), f('replicas')]);
    expect(s.leaves().toString()).toBe('.spec.replicas');
  });

  it('equals compares members and children', () => {
    expect(a.equals(FieldSet.of([f('metadata')], [f('spec'), f('paused')], [f('spec'), f('replicas')]))).toBe(
      true,
    );
    expect(a.equals(b)).toBe(false);
  });
});

describe('FieldsV1', () => {
  it('writes "." for an element that is a member and a prefix', () => {
    const s = FieldSet.of([f('metadata'), f('labels')], [f('metadata'), f('labels'), f('app')]);
    expect(JSON.stringify(setToFieldsV1(s))).toBe('{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}');
  });

  // kubernetes.io/docs/reference/using-api/server-side-apply/ ("Field management"): the ConfigMap
  // example's fieldsV1 (f:data, f:metadata.f:labels.f:test-label), written in smd's order.
  it('the ConfigMap of the Server-Side Apply documentation', () => {
    const s = fieldsV1ToSet({
      'f:metadata': { 'f:labels': { 'f:test-label': {} } },
      'f:data': { 'f:key': {} },
    });
    expect(s.toString().split('\n')).toEqual(['.data.key', '.metadata.labels.test-label']);
    expect(JSON.stringify(setToFieldsV1(s))).toBe(
      '{"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}',
    );
  });

  // structured-merge-diff fieldpath/serialize_test.go TestSerializeV1 (Apache-2.0), three of its cases.
  it.each([
    '{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}',
    '{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}',
    '{"f:spec":{".":{},"f:apps":{".":{},"k:{\\"name\\":\\" app-💻\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port 🔑\\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}},"k:{\\"name\\":\\" app-🚀\\"}":{".":{},"f:container":{".":{},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"name\\":\\"port-✅ \\"}":{".":{},"f:containerPort":{},"f:name":{}}}},"f:name":{}}}}}',
  ])('round-trips smd golden %#', (text) => {
    expect(roundTrip(text)).toBe(text);
  });

  it('sorts what arrives out of order and drops unknown element types', () => {
    expect(roundTrip('{"v:2":{},"f:b":{},"x:new":{},"f:a":{}}')).toBe('{"f:a":{},"f:b":{},"v:2":{}}');
  });

  it('refuses a value that is not an object', () => {
    expect(() => fieldsV1ToSet({ 'f:a': 1 })).toThrow(FieldsV1Error);
  });
});

describe('FieldsV1 questions answered without decoding (fields-v1-raw.ts)', () => {
  const raw = { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:x': {} } } };

  it('scan tells smd-form objects from others and validates as the decoder does', () => {
    expect(scanFieldsV1(raw)).toBe(true);
    expect(scanFieldsV1({ 'f:b': {}, 'f:a': {} })).toBe(false); // out of order
    expect(scanFieldsV1({ 'k:{"b":1,"a":2}': {} })).toBe(false); // key fields not sorted
    expect(scanFieldsV1({ 'f:a': { '.': {} } })).toBe(false); // "." without children
    expect(() => scanFieldsV1({ 'f:a': 1 })).toThrow(FieldsV1Error);
  });

  it('hasAny and within agree with the decoded set', () => {
    const set = fieldsV1ToSet(raw);
    const probes = [
      FieldSet.of([f('data')]),
      FieldSet.of([f('data'), f('a')]),
      FieldSet.of([f('metadata'), f('labels')]),
      FieldSet.of([f('metadata'), f('labels'), f('x')]),
      FieldSet.of([f('spec')]),
      set,
      set.union(FieldSet.of([f('spec')])),
    ];
    for (const p of probes) {
      expect(rawHasAny(raw, p)).toBe(!set.intersection(p).empty());
      expect(rawWithin(raw, p)).toBe(set.isSubsetOf(p));
    }
  });
});
