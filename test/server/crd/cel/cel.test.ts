/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';

const lines = (errs: { field: string; message: string }[]): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);

function specSchema(rules: unknown[], props: Record<string, CrdSchemaProps> = {}): CrdSchemaProps {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules,
        properties: {
          minReplicas: { type: 'integer' },
          maxReplicas: { type: 'integer' },
          ratio: { type: 'number' },
          name: { type: 'string', maxLength: 63 },
          items: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 } },
          labels: {
            type: 'object',
            maxProperties: 10,
            additionalProperties: { type: 'string', maxLength: 63 },
          },
          ...props,
        },
      },
    },
  };
}
const run = (rules: unknown[], spec: unknown, old?: unknown): string[] =>
  lines(
    compileCrdSchemaWithCel(specSchema(rules)).validate(
      { spec },
      old === undefined ? {} : { oldObject: { spec: old } },
    ),
  );

describe('rule forms', () => {
  it.each([
    ['self.minReplicas <= self.maxReplicas', { minReplicas: 1, maxReplicas: 3 }, true],
    ['self.minReplicas <= self.maxReplicas', { minReplicas: 4, maxReplicas: 3 }, false],
    ['self.items.all(x, x.size() < 10)', { items: ['a', 'bb'] }, true],
    ['self.items.all(x, x.size() < 2)', { items: ['a', 'bb'] }, false],
    ['self.items.exists(x, x == "bb")', { items: ['a', 'bb'] }, true],
    ['self.items.exists_one(x, x.startsWith("b"))', { items: ['a', 'bb'] }, true],
    ['self.items.map(x, x + "!").size() == 2', { items: ['a', 'bb'] }, true],
    ['self.items.filter(x, x.size() > 1) == ["bb"]', { items: ['a', 'bb'] }, true],
    ['self.labels.all(k, k.startsWith("app"))', { labels: { app: 'x', appx: 'y' } }, true],
    ['has(self.name)', { name: 'a' }, true],
    ['has(self.name)', {}, false],
    ['self.name.startsWith("a")', { name: 'abc' }, true],
    ['self.name.matches("^(?i)ABC$")', { name: 'abc' }, true],
    ['self.name.matches("\\\\Aab")', { name: 'abc' }, true],
    ['self.minReplicas / 2 == 1', { minReplicas: 3 }, true],
    ['self.ratio / 2.0 == 1.5', { ratio: 3 }, true],
    ['self.?name.orValue("none") == "none"', {}, true],
    ['cel.bind(n, self.items.size(), n == 2)', { items: ['a', 'b'] }, true],
    ['self.items.isSorted() && self.items.indexOf("b") == 1', { items: ['a', 'b'] }, true],
    ['[1, 5, 3].max() == 5 && [1, 5, 3].min() == 1 && [1, 2].sum() == 3', {}, true],
    [
      'self.name.charAt(1) == "b" && self.name.upperAscii() == "ABC" && self.name.replace("b", "x") == "axc"',
      { name: 'abc' },
      true,
    ],
    ['"a-b".split("-") == ["a", "b"] && ["a", "b"].join(",") == "a,b" && " a ".trim() == "a"', {}, true],
    ['"%s has %d".format([self.name, 2]) == "abc has 2"', { name: 'abc' }, true],
    ['self.name.find("[0-9]+") == "12" && self.name.findAll("[0-9]") == ["1", "2"]', { name: 'ab12' }, true],
    [
      'isURL(self.name) && url(self.name).getHost() == "example.com:8080"',
      { name: 'https://example.com:8080/x' },
      true,
    ],
    ['isQuantity(self.name) && quantity(self.name).isGreaterThan(quantity("1Gi"))', { name: '2Gi' }, true],
    ['!format.dns1123Label().validate(self.name).hasValue()', { name: 'abc' }, true],
    ['format.dns1123Label().validate(self.name).hasValue()', { name: 'ABC' }, true],
  ])('%s on %j is %s', (rule, spec, ok) => {
    expect(run([{ rule }], spec)).toEqual(ok ? [] : [`spec: Invalid value: failed rule: ${rule}`]);
  });
});

describe('failures', () => {
  it('message, messageExpression and the default message', () => {
    const rules = [
      { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
      {
        rule: 'self.minReplicas <= self.maxReplicas',
        messageExpression: '"min " + string(self.minReplicas) + " > max"',
      },
      { rule: 'self.minReplicas <= self.maxReplicas', messageExpression: '""', message: 'fallback' },
    ];
    expect(run(rules, { minReplicas: 5, maxReplicas: 3 })).toEqual([
      'spec: Invalid value: minReplicas must not exceed maxReplicas',
      'spec: Invalid value: min 5 > max',
      'spec: Invalid value: fallback',
    ]);
  });

  it('reason and fieldPath', () => {
    const rules = [
      {
        rule: 'self.minReplicas <= 1',
        reason: 'FieldValueForbidden',
        fieldPath: '.minReplicas',
        message: 'too many',
      },
      {
        rule: 'has(self.name)',
        reason: 'FieldValueRequired',
        fieldPath: '.name',
        message: 'name is required',
      },
      { rule: 'false', reason: 'FieldValueDuplicate', fieldPath: ".labels['a.b']" },
      { rule: 'false', reason: 'FieldValueInvalid' },
    ];
    expect(run(rules, { minReplicas: 2, labels: {} })).toEqual([
      'spec.minReplicas: Forbidden: too many',
      'spec.name: Required value: name is required',
      'spec.labels[a.b]: Duplicate value',
      'spec: Invalid value: failed rule: false',
    ]);
  });

  it('a root rule is reported at <nil>, a map value at its key, a list item at its index', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'has(self.spec)' }],
      properties: {
        spec: {
          type: 'object',
          properties: {
            tags: {
              type: 'object',
              additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != "x"' }] },
            },
            ports: {
              type: 'array',
              items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] },
            },
          },
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    expect(lines(crd.validate({ metadata: {} }))).toEqual([
      '<nil>: Invalid value: failed rule: has(self.spec)',
    ]);
    expect(lines(crd.validate({ spec: { tags: { a: 'x' }, ports: [1, 0] } }))).toEqual([
      'spec.tags[a]: Invalid value: "x": failed rule: self != "x"',
      'spec.ports[1]: Invalid value: 0: failed rule: self > 0',
    ]);
  });

  it('evaluation errors name the rule', () => {
    expect(run([{ rule: 'self.name == "a"' }], {})).toEqual([
      'spec: Invalid value: "object": no such key: name evaluating rule: self.name == "a"',
    ]);
    expect(run([{ rule: 'self.minReplicas / 0 == 1' }], { minReplicas: 1 })).toEqual([
      'spec: Invalid value: "object": division by zero evaluating rule: self.minReplicas / 0 == 1',
    ]);
    // cel-go's words, not cel-js's (`No such key: index out of bounds, index 5 >= size 1`).
    expect(run([{ rule: 'self.items[5] == "x"' }], { items: ['a'] })).toEqual([
      'spec: Invalid value: "object": index out of bounds: 5 evaluating rule: self.items[5] == "x"',
    ]);
    expect(run([{ rule: 'self.minReplicas % 0 == 1' }], { minReplicas: 1 })).toEqual([
      'spec: Invalid value: "object": modulus by zero evaluating rule: self.minReplicas % 0 == 1',
    ]);
    expect(run([{ rule: 'self.labels + 1 == 1' }], { labels: {} })[0]).toMatch(
      /^spec: Invalid value: "object": 'no such overload.*': call arguments did not match a supported operator, function or macro signature for rule: self.labels \+ 1 == 1$/,
    );
  });

  it('CEL is skipped when the object has blocking errors', () => {
    const crd = compileCrdSchemaWithCel(specSchema([{ rule: 'false' }]));
    expect(lines(crd.validate({ spec: { minReplicas: 'x' } }))).toEqual([
      'spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string"',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });
});

describe('transition rules', () => {
  const immutable = [{ rule: 'self.name == oldSelf.name', message: 'name is immutable' }];
  it('run only on update, with the old value', () => {
    expect(run(immutable, { name: 'a' })).toEqual([]);
    expect(run(immutable, { name: 'a' }, { name: 'a' })).toEqual([]);
    expect(run(immutable, { name: 'b' }, { name: 'a' })).toEqual(['spec: Invalid value: name is immutable']);
  });
  it('optionalOldSelf runs on create too, with oldSelf optional', () => {
    const rules = [
      {
        rule: '!oldSelf.hasValue() || self.minReplicas >= oldSelf.value().minReplicas',
        optionalOldSelf: true,
        message: 'may not shrink',
      },
    ];
    expect(run(rules, { minReplicas: 1 })).toEqual([]);
    expect(run(rules, { minReplicas: 1 }, { minReplicas: 2 })).toEqual([
      'spec: Invalid value: may not shrink',
    ]);
  });
  it('map list items correlate by key; a failing rule on an unchanged value is ratcheted', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                required: ['name'],
                'x-kubernetes-validations': [
                  { rule: 'self.port == oldSelf.port', message: 'port is immutable' },
                  { rule: 'self.port < 100', message: 'port too high' },
                ],
                properties: { name: { type: 'string' }, port: { type: 'integer' } },
              },
            },
          },
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    const old = {
      spec: {
        ports: [
          { name: 'a', port: 500 },
          { name: 'b', port: 2 },
        ],
      },
    };
    const next = {
      spec: {
        ports: [
          { name: 'b', port: 3 },
          { name: 'a', port: 500 },
          { name: 'c', port: 200 },
        ],
      },
    };
    expect(lines(crd.validate(next, { oldObject: old }))).toEqual([
      'spec.ports[0]: Invalid value: port is immutable',
      'spec.ports[2]: Invalid value: port too high',
    ]);
  });
});

describe('list types', () => {
  it('set and map lists equal their old value in any order; atomic lists do not', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }],
          properties: {
            set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            map: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, v: { type: 'integer' } },
              },
            },
            atomic: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    const old = {
      spec: {
        set: ['a', 'b'],
        map: [
          { name: 'x', v: 1 },
          { name: 'y', v: 2 },
        ],
        atomic: ['a', 'b'],
      },
    };
    const reordered = {
      spec: {
        set: ['b', 'a'],
        map: [
          { name: 'y', v: 2 },
          { name: 'x', v: 1 },
        ],
        atomic: ['a', 'b'],
      },
    };
    expect(lines(crd.validate(reordered, { oldObject: old }))).toEqual([]);
    const changed = {
      spec: {
        ...reordered.spec,
        map: [
          { name: 'y', v: 3 },
          { name: 'x', v: 1 },
        ],
      },
    };
    expect(lines(crd.validate(changed, { oldObject: old }))).toEqual(['spec: Invalid value: immutable']);
    const atomic = { spec: { ...old.spec, atomic: ['b', 'a'] } };
    expect(lines(crd.validate(atomic, { oldObject: old }))).toEqual(['spec: Invalid value: immutable']);
    expect(lines(crd.validate({ spec: { ...old.spec } }, {}))).toEqual([]);
  });

  it('set and map lists still index, iterate and measure in order', () => {
    const schema = specSchema(
      [
        {
          rule: 'self.s[0] == "b" && self.s.size() == 2 && self.s.map(x, x + "!") == ["b!", "a!"] && "a" in self.s && self.s.indexOf("a") == 1 && !self.s.isSorted()',
        },
      ],
      {
        s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    );
    expect(lines(compileCrdSchemaWithCel(schema).validate({ spec: { s: ['b', 'a'] } }))).toEqual([]);
  });
});

describe('bounded evaluation', () => {
  it('a pathological rule stops at the per-call limit', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { l: { type: 'array', maxItems: 1000, items: { type: 'integer' } } },
          'x-kubernetes-validations': [
            { rule: 'self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))' },
            { rule: 'false' },
          ],
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    // Run to the end, 10^9 evaluations: the test's timeout would catch it.
    const errs = lines(crd.validate({ spec: { l: Array.from({ length: 1000 }, (_, i) => i) } }));
    expect(errs).toEqual([
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))',
    ]);
  });
  it('a backtracking pattern runs in linear time, as in RE2', () => {
    const schema = specSchema([{ rule: "self.text.matches('(a+)+$')" }], { text: { type: 'string' } });
    // Backtracking on 5,000 a's never ends: the test's timeout would catch it.
    const errs = lines(compileCrdSchemaWithCel(schema).validate({ spec: { text: `${'a'.repeat(5000)}b` } }));
    expect(errs).toEqual([`spec: Invalid value: failed rule: self.text.matches('(a+)+$')`]);
  });

  it('a schema pattern backtracking would take seconds on runs in linear time too', () => {
    const schema = specSchema([], { text: { type: 'string', pattern: '^(a+)+$' } });
    // Backtracking, 2^40 steps: the test's timeout would catch it.
    const errs = lines(compileCrdSchemaWithCel(schema).validate({ spec: { text: `${'a'.repeat(40)}b` } }));
    expect(errs).toEqual([
      `spec.text: Invalid value: "${'a'.repeat(40)}b": spec.text in body should match '^(a+)+$'`,
    ]);
  });

  it('the request budget is shared by all nodes', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            l: {
              type: 'array',
              items: {
                type: 'array',
                maxItems: 300,
                items: { type: 'integer' },
                'x-kubernetes-validations': [{ rule: 'self.all(a, self.all(b, a + b >= 0))' }],
              },
            },
          },
        },
      },
    };
    const row = Array.from({ length: 300 }, (_, i) => i);
    const errs = lines(
      compileCrdSchemaWithCel(schema).validate({ spec: { l: Array.from({ length: 20 }, () => row) } }),
    );
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(
      /^spec\.l\[\d+\]: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run$/,
    );
  });
});

describe('real rules: Gateway API HTTPRoute', () => {
  const crd = parse(
    readFileSync(
      new URL('../../../../support/fixtures/crds/gateway.networking.k8s.io_httproutes.yaml', import.meta.url),
      'utf8',
    ),
  );
  const version = crd.spec.versions.find((v: { storage: boolean }) => v.storage);
  const schema = compileCrdSchemaWithCel(version.schema.openAPIV3Schema);
  const route = (rules: unknown[]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'r' },
    spec: { rules },
  });
  it('accepts a valid route', () => {
    expect(
      lines(schema.validate(route([{ matches: [{ path: { type: 'PathPrefix', value: '/foo' } }] }]))),
    ).toEqual([]);
  });
  it('refuses a path value that does not start with /', () => {
    const errs = lines(
      schema.validate(route([{ matches: [{ path: { type: 'PathPrefix', value: 'foo' } }] }])),
    );
    expect(errs).toContain(
      "spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
    );
  });
});

describe('allOf', () => {
  it("an allOf branch's rules run on the node's value", () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'integer' } },
          allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a > 1', message: 'a must exceed 1' }] }],
        },
      },
    };
    expect(lines(compileCrdSchemaWithCel(schema).validate({ spec: { a: 1 } }))).toEqual([
      'spec: Invalid value: a must exceed 1',
    ]);
  });
});

describe('formatted strings', () => {
  it('date-time is a timestamp, duration a duration, byte bytes', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            notAfter: { type: 'string', format: 'date-time' },
            timeout: { type: 'string', format: 'duration' },
            data: { type: 'string', format: 'byte' },
          },
          'x-kubernetes-validations': [
            { rule: 'self.notAfter > timestamp("2024-01-01T00:00:00Z")', message: 'too early' },
            {
              rule: 'self.timeout <= duration("1h") && duration(self.timeout) > duration("1s")',
              message: 'timeout',
            },
            { rule: 'size(self.data) == 5', message: 'data' },
          ],
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    expect(
      lines(crd.validate({ spec: { notAfter: '2025-05-01T10:00:00Z', timeout: '30m', data: 'aGVsbG8=' } })),
    ).toEqual([]);
    expect(
      lines(crd.validate({ spec: { notAfter: '2023-05-01T10:00:00Z', timeout: '2h', data: 'aGk=' } })),
    ).toEqual([
      'spec: Invalid value: too early',
      'spec: Invalid value: timeout',
      'spec: Invalid value: data',
    ]);
  });
});
