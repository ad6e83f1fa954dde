/**
 * CEL rules judged when a CRD is written (validation.go `ValidateCustomResourceDefinitionOpenAPISchema`'s
 * x-kubernetes-validations branch, over src/server/crd/cel): compile errors, unsupported
 * functions, estimated cost, and oldSelf where nothing correlates, with kube-apiserver's paths.
 */
import { describe, expect, it } from 'vitest';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from '../../../../src/server/crd/definition/validation.js';
import { minimalWidgetCrd } from '../../../helpers/widget.js';

type Json = Record<string, unknown>;

function crdOf(schema: Json): Json {
  return { ...minimalWidgetCrd(schema), status: { storedVersions: ['v1'] } };
}
const texts = (errs: { field: string; message: string }[]): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);
const errorsOf = (schema: Json): string[] => texts(validateCustomResourceDefinition(crdOf(schema)));

const P = 'spec.validation.openAPIV3Schema';
const withSpec = (spec: Json): Json => ({ type: 'object', properties: { spec } });
/** The rule as json.Marshal writes it: `<`, `>` and `&` escaped (kube-apiserver 1.37 shows `\u003e`). */
const goRule = (rule: string): string =>
  `{"Rule":${JSON.stringify(rule).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')},"Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}`;

describe('CEL compilation when a CRD is written', () => {
  it('accepts rules that compile', () => {
    const spec = {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'bad' },
        { rule: 'self.name == oldSelf.name', messageExpression: '"was " + oldSelf.name' },
      ],
      properties: {
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        name: { type: 'string' },
      },
    };
    expect(errorsOf(withSpec(spec))).toEqual([]);
  });

  it('refuses a syntax error at the rule, echoing the rule as the internal struct prints', () => {
    const spec = { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a +' }] };
    expect(errorsOf(withSpec(spec))).toEqual([
      `${P}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.a +')}: compilation failed: ERROR: <input>:1:9: Unexpected token: EOF\n | self.a +\n | ........^`,
    ]);
  });

  it('refuses an unsupported function at compile time, not at write time', () => {
    const spec = { type: 'string', 'x-kubernetes-validations': [{ rule: 'semver(self).major() == 1' }] };
    const errs = errorsOf(withSpec(spec));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(
      /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: ERROR: <input>:1:1: found no matching overload for 'semver\(dyn\)'/,
    );
  });

  it('refuses a rule that does not give a bool, and a messageExpression that does not give a string', () => {
    const spec = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: '1 + 2' }, { rule: 'true', messageExpression: '42' }],
    };
    const errs = errorsOf(withSpec(spec));
    expect(errs[0]).toBe(
      `${P}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${goRule('1 + 2')}: cel expression must evaluate to a bool`,
    );
    expect(errs[1]).toMatch(
      /x-kubernetes-validations\[1\]\.messageExpression: Invalid value: .*: messageExpression must evaluate to a string$/,
    );
  });

  it('refuses a nested comprehension over unbounded lists by its estimated cost', () => {
    const spec = {
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string' } } },
      'x-kubernetes-validations': [{ rule: 'self.l.all(x, self.l.all(y, x == y))' }],
    };
    expect(errorsOf(withSpec(spec))).toEqual([
      `${P}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      `${P}.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
  });

  it('accepts the same rule once maxItems bounds the lists, and a single comprehension over an unbounded list', () => {
    const bounded = {
      type: 'object',
      properties: { l: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 20 } } },
      'x-kubernetes-validations': [{ rule: 'self.l.all(x, self.l.all(y, x == y))' }],
    };
    expect(errorsOf(withSpec(bounded))).toEqual([]);
    const single = {
      type: 'array',
      items: { type: 'integer' },
      'x-kubernetes-validations': [{ rule: 'self.all(x, x == 5)' }],
    };
    expect(errorsOf(withSpec(single))).toEqual([]);
  });

  it('multiplies by how often the node occurs: a rule on items of an unbounded list of lists', () => {
    const spec = {
      type: 'array',
      items: {
        type: 'array',
        items: { type: 'integer' },
        'x-kubernetes-validations': [{ rule: 'self.all(x, x == 5)' }],
      },
    };
    expect(errorsOf(withSpec(spec))[0]).toBe(
      `${P}.properties[spec].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
  });

  it('refuses oldSelf inside a list that is not a map list, and optionalOldSelf without oldSelf', () => {
    const spec = {
      type: 'array',
      maxItems: 10,
      items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
      'x-kubernetes-validations': [{ rule: 'self.size() > 0', optionalOldSelf: true }],
    };
    expect(errorsOf(withSpec(spec))).toEqual([
      `${P}.properties[spec].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
      `${P}.properties[spec].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${P}.properties[spec]`,
    ]);
  });

  it('refuses a field the schema does not declare, as a schema-typed self does', () => {
    const spec = {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        'max-surge': { type: 'integer' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
      'x-kubernetes-validations': [
        { rule: 'self.replica > 0' },
        {
          rule: 'self.max__dash__surge >= 0 && self.labels.anything == "x" && self.labels.all(k, k.size() > 0)',
        },
      ],
    };
    expect(errorsOf(withSpec(spec))).toEqual([
      `${P}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.replica > 0')}: compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^`,
    ]);
  });

  it('exposes no unknown fields of a preserve-unknown-fields object, nor untyped properties', () => {
    const spec = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { known: { type: 'string' }, raw: { 'x-kubernetes-preserve-unknown-fields': true } },
      'x-kubernetes-validations': [
        { rule: 'has(self.known)' },
        { rule: 'has(self.extra)' },
        { rule: 'has(self.raw)' },
      ],
    };
    const errs = errorsOf(withSpec(spec));
    expect(errs).toHaveLength(2);
    expect(errs[0]).toMatch(/x-kubernetes-validations\[1\]\.rule: .*undefined field 'extra'/);
    expect(errs[1]).toMatch(/x-kubernetes-validations\[2\]\.rule: .*undefined field 'raw'/);
  });

  it('gives the root apiVersion, kind and a metadata of name and generateName only', () => {
    const root = (rule: string): Json => ({
      type: 'object',
      properties: { spec: { type: 'object' } },
      'x-kubernetes-validations': [{ rule }],
    });
    expect(
      errorsOf(root('self.metadata.name.startsWith("a") && self.kind == "Widget" && has(self.spec)')),
    ).toEqual([]);
    expect(errorsOf(root('has(self.metadata.labels)'))[0]).toMatch(
      /compilation failed: ERROR: <input>:1:18: undefined field 'labels'/,
    );
  });

  // The cases of upstream's validation_test.go (v0.33) about estimated cost, paths only.
  const paths = (errs: string[]): string[] => errs.map((e) => e.slice(0, e.indexOf(': ')));
  it('upstream: cost total exceeding the CRD limit names the rules contributing 1% or more', () => {
    const contains = {
      type: 'string',
      maxLength: 5000,
      'x-kubernetes-validations': [{ rule: "self.contains('keyword')" }],
    };
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', maxItems: 100000, items: contains },
        map: { type: 'object', maxProperties: 1000, additionalProperties: contains },
        field: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 50 && self < 100' }] },
      },
    };
    expect(paths(errorsOf(schema))).toEqual([
      `${P}.properties[list].items.x-kubernetes-validations[0].rule`,
      `${P}.properties[list].items.x-kubernetes-validations[0].rule`,
      `${P}.properties[map].additionalProperties.x-kubernetes-validations[0].rule`,
      P,
    ]);
  });

  it('upstream: a messageExpression over the per-expression limit, and one of unbounded size over both', () => {
    const list = (messageExpression: string): Json => ({
      type: 'object',
      properties: {
        f: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: 'true', messageExpression }],
        },
      },
    });
    expect(
      paths(errorsOf(list('self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]'))),
    ).toEqual([`${P}.properties[f].x-kubernetes-validations[0].messageExpression`]);
    expect(paths(errorsOf(list('string(self[0]) + string(self[1]) + string(self[2])')))).toEqual([
      `${P}.properties[f].x-kubernetes-validations[0].messageExpression`,
      `${P}.properties[f].x-kubernetes-validations[0].messageExpression`,
      P,
    ]);
    expect(errorsOf(list('string(self[0]) + string(self[1]) + string(self[2])'))[0]).toBe(
      `${P}.properties[f].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
  });

  it('upstream: lowerAscii in a nested comprehension over small bounded lists is within the limit', () => {
    const spec = {
      type: 'array',
      maxItems: 5,
      items: { type: 'string', maxLength: 5 },
      'x-kubernetes-validations': [
        { rule: 'self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))' },
      ],
    };
    expect(errorsOf(withSpec(spec))).toEqual([]);
  });

  it("an update leaving the schema as it was does not judge each rule's cost again; the total still counts", () => {
    const costly = (description?: string): Json => ({
      type: 'object',
      description,
      properties: {
        list: {
          type: 'array',
          maxItems: 20000,
          items: {
            type: 'string',
            maxLength: 5000,
            'x-kubernetes-validations': [{ rule: "self.contains('keyword')" }],
          },
        },
      },
    });
    const rule = `${P}.properties[list].items.x-kubernetes-validations[0].rule`;
    expect(errorsOf(costly())).toEqual([
      `${rule}: Forbidden: estimated rule cost exceeds budget by factor of 4.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
    expect(texts(validateCustomResourceDefinitionUpdate(crdOf(costly()), crdOf(costly())))).toEqual([]);
    expect(
      texts(validateCustomResourceDefinitionUpdate(crdOf(costly('changed')), crdOf(costly()))),
    ).toHaveLength(1);
  });

  it("refuses a message, messageExpression or fieldPath in upstream's words", () => {
    const spec = {
      type: 'object',
      properties: { a: { type: 'string' } },
      'x-kubernetes-validations': [
        { rule: 'true', message: ' ' },
        { rule: 'true', message: 'a\nb' },
        { rule: 'true', messageExpression: ' ' },
        { rule: 'true', fieldPath: '.b' },
        { rule: 'true', fieldPath: '.a' },
      ],
    };
    const at = `${P}.properties[spec].x-kubernetes-validations`;
    expect(errorsOf(withSpec(spec))).toEqual([
      `${at}[0].message: Invalid value: " ": must be non-empty if specified`,
      `${at}[1].message: Invalid value: "a\\nb": must not contain line breaks`,
      `${at}[2].messageExpression: Required value: messageExpression must be non-empty if specified`,
      `${at}[3].fieldPath: Invalid value: ".b": must be a valid path`,
    ]);
  });

  it('does not compile CEL in a schema that has other errors', () => {
    const spec = {
      type: 'object',
      properties: { a: {} },
      'x-kubernetes-validations': [{ rule: 'self.a +' }],
    };
    expect(errorsOf(withSpec(spec)).some((e) => e.includes('compilation failed'))).toBe(false);
  });

  it("sizes as upstream's declared types do: map keys 0, enum strings by their values", () => {
    // Istio's selector: 4096 keys, each `contains` costing nothing beyond its call (keys have
    // no MaxElements upstream).
    const labels = {
      type: 'object',
      maxProperties: 4096,
      additionalProperties: { type: 'string', maxLength: 63 },
      'x-kubernetes-validations': [{ rule: 'self.all(key, !key.contains("*"))' }],
    };
    // Constant-cost rules on the items of an unbounded list (1,048,576 of them at most).
    const item = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['UPSERT', 'REMOVE'] },
        value: { type: 'string' },
        interval: { type: 'string', format: 'duration' },
      },
      'x-kubernetes-validations': [
        { rule: '((has(self.mode) ? self.mode : "") == "UPSERT") ? (self.value != "") : true' },
        { rule: '(has(self.value) ? 1 : 0) + (has(self.interval) ? 1 : 0) <= 1' },
      ],
    };
    const spec = {
      type: 'object',
      properties: {
        labels,
        items: { type: 'array', items: item },
        addresses: { type: 'array', maxItems: 256, items: { type: 'string', maxLength: 64 } },
      },
      // A ternary of a list and `[]` keeps the list's element sizes.
      'x-kubernetes-validations': [
        { rule: '!((has(self.addresses) ? self.addresses : []).exists(k, k.contains("/")))' },
      ],
    };
    expect(errorsOf(withSpec(spec))).toEqual([]);
  });

  it("a rule compiled once per text still checks each node's fields", () => {
    const rule = { rule: 'self.a == 1' };
    const spec = {
      type: 'object',
      properties: {
        x: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [rule] },
        y: { type: 'object', properties: { b: { type: 'integer' } }, 'x-kubernetes-validations': [rule] },
      },
    };
    const errs = errorsOf(withSpec(spec));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toContain(`${P}.properties[spec].properties[y].x-kubernetes-validations[0].rule`);
    expect(errs[0]).toContain("undefined field 'a'");
  });
});
