import { describe, expect, it } from 'vitest';
import { jsonToYaml } from '../../../src/server/handlers/yaml-answer.js';

describe('jsonToYaml (go-yaml v2 as sigs.k8s.io/yaml JSONToYAML drives it)', () => {
  it('writes what kube-apiserver 1.37 answered for the same ConfigMap', () => {
    const data = {
      a: 'yes',
      b: '2026-01-01',
      c: '1.5',
      d: '',
      e: 'null',
      f: 'a: b',
      false: '1e3',
      g: '-x',
      h: 'line1\nline2',
      i: 'a very long string that goes on and on and on and on and on and on and on and on and on and on and on and on past eighty columns',
      j: '~',
      k: '0x1F',
      l: 'on',
      m: 'y',
      o: '*',
      p: '&x',
      q: '#c',
      r: '@a',
      s: ' lead',
      t: 'trail ',
    };
    const object = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'y1',
        resourceVersion: '266',
        managedFields: [{ manager: 'probe', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } }],
      },
      data,
    };
    // Captured from the reference server (kube-apiserver v1.37.2, Accept: application/yaml).
    expect(jsonToYaml(JSON.stringify(object))).toBe(
      [
        'apiVersion: v1',
        'data:',
        '  a: "yes"',
        '  b: "2026-01-01"',
        '  c: "1.5"',
        '  d: ""',
        '  e: "null"',
        "  f: 'a: b'",
        '  "false": "1e3"',
        '  g: -x',
        '  h: |-',
        '    line1',
        '    line2',
        '  i: a very long string that goes on and on and on and on and on and on and on and',
        '    on and on and on and on and on past eighty columns',
        '  j: "~"',
        '  k: "0x1F"',
        '  l: "on"',
        '  m: "y"',
        "  o: '*'",
        "  p: '&x'",
        "  q: '#c'",
        "  r: '@a'",
        "  s: ' lead'",
        "  t: 'trail '",
        'kind: ConfigMap',
        'metadata:',
        '  managedFields:',
        '  - fieldsV1:',
        '      f:data:',
        '        .: {}',
        '        f:a: {}',
        '    manager: probe',
        '  name: y1',
        '  resourceVersion: "266"',
        '',
      ].join('\n'),
    );
  });

  it('sorts keys as go-yaml does: anything before a letter, letters by code point, digit runs by value', () => {
    const yaml = jsonToYaml(JSON.stringify({ b: 1, a10: 1, a2: 1, _x: 1, B: 1 }));
    expect(yaml).toBe('_x: 1\nB: 1\na2: 1\na10: 1\nb: 1\n');
  });
});
