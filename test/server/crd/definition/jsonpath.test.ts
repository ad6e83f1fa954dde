import { describe, expect, it } from 'vitest';
import {
  goFloatText,
  JsonPath,
  JsonPathEvalError,
  JsonPathSyntaxError,
  printResults,
} from '../../../../src/server/crd/definition/jsonpath.js';

// Cases follow client-go util/jsonpath (parser.go, jsonpath.go) rules.
const pod = {
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web', 'kubernetes.io/os': 'linux' } },
  spec: {
    containers: [
      { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] },
      { name: 'sidecar', image: 'envoy', ports: [{ containerPort: 9901 }, { containerPort: 15000 }] },
    ],
  },
  status: {
    replicas: 3,
    ratio: 0.75,
    ready: true,
    empty: null,
    conditions: [
      { type: 'Initialized', status: 'True', count: 1 },
      { type: 'Ready', status: 'False', count: 5 },
      { type: 'Scheduled', status: 'True', count: 10, reason: 'Fit' },
    ],
  },
};

const find = (path: string, data: unknown = pod): unknown[] =>
  new JsonPath(`{${path}}`, { allowMissingKeys: true }).findResults(data)[0] ?? [];

describe('JsonPath.findResults', () => {
  it.each([
    ['.metadata.name', ['web']],
    ['$.metadata.name', ['web']],
    ['.status.replicas', [3]],
    ['.spec.containers[0].name', ['app']],
    ['.spec.containers[-1].name', ['sidecar']],
    ['.spec.containers[0:2].image', ['nginx', 'envoy']],
    ['.spec.containers[1:].name', ['sidecar']],
    ['.status.conditions[::2].type', ['Initialized', 'Scheduled']],
    ['.spec.containers[*].name', ['app', 'sidecar']],
    ['.spec.containers[0,1].image', ['nginx', 'envoy']],
    ['.metadata.labels.*', ['web', 'linux']],
    ['..containerPort', [80, 9901, 15000]],
    ['.status.conditions[?(@.type=="Ready")].status', ['False']],
    [".status.conditions[?(@.type=='Ready')].status", ['False']],
    ['.status.conditions[?(@.type!="Ready")].type', ['Initialized', 'Scheduled']],
    ['.status.conditions[?(@.count>1)].type', ['Ready', 'Scheduled']],
    ['.status.conditions[?(@.count>=5)].type', ['Ready', 'Scheduled']],
    ['.status.conditions[?(@.count<5)].type', ['Initialized']],
    ['.status.conditions[?(@.count<=5)].type', ['Initialized', 'Ready']],
    ['.status.conditions[?(@.reason)].type', ['Scheduled']],
    ["['metadata']['name']", ['web']],
    ['.metadata.labels.kubernetes\\.io/os', ['linux']],
    ['.status.empty', [null]],
    ['.status.missing', []],
    ['.status.replicas.deeper', []],
    ['.spec.containers[2:2].name', []],
  ])('%s', (path, want) => {
    expect(find(path)).toEqual(want);
  });

  it("reads ['a.b'] as the path .a.b, as parseArray re-parses a dict key", () => {
    expect(find("['metadata.name']")).toEqual(['web']);
    expect(find(".metadata.labels['kubernetes.io/os']")).toEqual([]);
  });

  it("a union of dict keys, as client-go's own test `{.items[*]['metadata.name', 'status.capacity']}`", () => {
    const nodes = { items: [{ metadata: { name: 'n1' }, status: { capacity: { cpu: '4' } } }] };
    expect(printResults(find(".items[*]['metadata.name', 'status.capacity']", nodes))).toBe('n1 {"cpu":"4"}');
    expect(new JsonPath('{[-1].x}').findResults([{ x: null }])).toEqual([[null]]);
    expect(printResults([null])).toBe('null');
  });

  it('an action left open is a syntax error', () => {
    expect(() => new JsonPath('{.a')).toThrow('unclosed action');
  });

  it('keeps text around actions as its own result list', () => {
    expect(new JsonPath('name={.metadata.name}').findResults(pod)).toEqual([['name='], ['web']]);
  });

  it('a missing key is an error unless AllowMissingKeys', () => {
    expect(() => new JsonPath('{.status.missing}').findResults(pod)).toThrow('missing is not found');
  });

  it.each([
    ['.spec.containers[5].name', 'array index out of bounds: index 5, length 2'],
    ['.metadata[0]', 'map[string]interface {} is not array or slice'],
    ['.spec.containers[0:1:0]', 'step must be > 0'],
    ['.metadata[?(@.x)]', 'is not array or slice and cannot be filtered'],
    // funcs.go: an int64 compared with a float64 literal, or a bool ordered, is an error.
    ['.status.conditions[?(@.count==1.0)]', 'incompatible types for comparison'],
    ['.status.conditions[?(@.count=="1")]', 'incompatible types for comparison'],
    ['.spec.containers[?(@.ports[*].containerPort==80)]', 'can only compare one element at a time'],
    ['.metadata foo', 'unrecognized identifier foo'],
  ])('%s fails: %s', (path, message) => {
    let error: unknown;
    try {
      find(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonPathEvalError);
    expect((error as Error).message).toContain(message);
  });

  it('compares a float field with a float literal, a bool with a bool', () => {
    expect(
      find('.items[?(@.r>0.5)].n', {
        items: [
          { r: 0.25, n: 'a' },
          { r: 0.75, n: 'b' },
        ],
      }),
    ).toEqual(['b']);
    expect(
      find('.items[?(@.on==true)].n', {
        items: [
          { on: false, n: 'a' },
          { on: true, n: 'b' },
        ],
      }),
    ).toEqual(['b']);
  });

  it.each([
    ['.a[', 'unterminated array'],
    ['.a[x]', 'invalid array index x'],
    ['.a[?(@.b=="c")', 'unclosed array expect ]'],
    ['....a', 'invalid multiple recursive descent'],
    ['.a[0]#', "unrecognized character in action: U+0023 '#'"],
    ['"abc', 'unterminated quoted string'],
  ])('%s does not parse: %s', (path, message) => {
    expect(() => new JsonPath(`{${path}}`)).toThrow(JsonPathSyntaxError);
    expect(() => new JsonPath(`{${path}}`)).toThrow(message);
  });
});

describe('printResults', () => {
  it('prints scalars as fmt does and containers as compact JSON with sorted keys', () => {
    expect(printResults(['a', 3, true, null])).toBe('a 3 true null');
    expect(printResults([{ b: 1, a: '<x>' }])).toBe('{"a":"\\u003cx\\u003e","b":1}');
    expect(printResults([[1, 'two']])).toBe('[1,"two"]');
    expect(printResults([undefined])).toBe('<no value>');
  });

  it.each([
    [0.75, '0.75'],
    [1.5e6, '1.5e+06'],
    [123456.5, '123456.5'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
  ])("formats the float64 %d as fmt's %%v: %s", (f, text) => {
    expect(goFloatText(f)).toBe(text);
  });
});
