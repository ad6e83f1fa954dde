/**
 * The engine against a real CRD: prometheus-operator's PrometheusRule (support/fixtures/crds/, Apache-2.0)
 * and the object from its alerting user guide.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyDefaults } from '../../../../src/server/crd/schema/default.js';
import { pruneUnknownFields } from '../../../../src/server/crd/schema/prune.js';
import { type CrdSchemaProps, compileStructural } from '../../../../src/server/crd/schema/structural.js';
import { validateCustomObject } from '../../../../src/server/crd/schema/validate.js';

const fixture = (name: string): unknown =>
  parse(readFileSync(new URL(`../../../../support/fixtures/crds/${name}`, import.meta.url), 'utf8'));

const crd = fixture('monitoring.coreos.com_prometheusrules.yaml') as {
  spec: { versions: Array<{ name: string; schema: { openAPIV3Schema: CrdSchemaProps } }> };
};
const schema = compileStructural(crd.spec.versions[0]!.schema.openAPIV3Schema);
const example = () => structuredClone(fixture('prometheus-example-rules.yaml')) as Record<string, any>;
const texts = (obj: unknown) => validateCustomObject(schema, obj).map((e) => `${e.field}: ${e.message}`);

describe('PrometheusRule CRD (prometheus-operator)', () => {
  it('accepts the user guide example as it is: nothing invalid, nothing pruned, nothing defaulted', () => {
    const obj = example();
    const before = structuredClone(obj);
    expect(texts(obj)).toEqual([]);
    expect(pruneUnknownFields(obj, schema)).toEqual([]);
    applyDefaults(obj, schema);
    expect(obj).toEqual(before);
  });

  it('accepts int-or-string expr, a case-insensitive (?i) pattern and well-formed durations', () => {
    const obj = example();
    obj.spec.groups[0].partial_response_strategy = 'ABORT';
    obj.spec.groups[0].interval = '1m30s';
    obj.spec.groups[0].rules[0].expr = 1;
    expect(texts(obj)).toEqual([]);
  });

  it('reports a broken object with kube-apiserver paths and messages', () => {
    const obj = example();
    obj.spec.groups[0].rules[0].for = '5 minutes';
    obj.spec.groups[0].rules.push({ record: 'r' });
    obj.spec.groups.push({ name: './example.rules', rules: [] }, { name: '' });
    expect(texts(obj)).toEqual([
      `spec.groups[0].rules[0].for: Invalid value: "5 minutes": spec.groups[0].rules[0].for in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'`,
      'spec.groups[0].rules[1].expr: Required value',
      'spec.groups[2].name: Invalid value: "": spec.groups[2].name in body should be at least 1 chars long',
      'spec.groups[1]: Duplicate value: {"name":"./example.rules"}',
    ]);
  });

  it('refuses an expr that is neither integer nor string, as the anyOf and the int-or-string type both do', () => {
    const obj = example();
    obj.spec.groups[0].rules[0].expr = true;
    expect(texts(obj)).toEqual([
      'spec.groups[0].rules[0].expr: Invalid value: "boolean": spec.groups[0].rules[0].expr in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "spec.groups[0].rules[0].expr" must validate at least one schema (anyOf)',
      'spec.groups[0].rules[0].expr: Invalid value: "boolean": spec.groups[0].rules[0].expr in body must be of type integer: "boolean"',
    ]);
  });

  it('requires spec at the root, and checks the status date-time format', () => {
    const obj = example();
    delete obj.spec;
    obj.status = {
      bindings: [
        {
          group: 'monitoring.coreos.com',
          resource: 'prometheuses',
          name: 'p',
          namespace: 'default',
          conditions: [{ type: 'Accepted', status: 'True', lastTransitionTime: 'now' }],
        },
      ],
    };
    expect(texts(obj)).toEqual([
      'status.bindings[0].conditions[0].lastTransitionTime: Invalid value: "now": status.bindings[0].conditions[0].lastTransitionTime in body must be of type date-time: "now"',
      'spec: Required value',
    ]);
  });

  it('prunes fields the schema does not know and names them', () => {
    const obj = example();
    obj.spec.groups[0].rules[0].severity = 'page';
    obj.spec.extra = 1;
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.extra', 'spec.groups[0].rules[0].severity']);
  });
});
