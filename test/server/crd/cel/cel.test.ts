/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { lines, run, specSchema } from './fixture.js';

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
