/**
 * The CustomResourceDefinition kind in the generated type table: the server's typed check
 * (schema/) reads real CRDs (support/fixtures/crds/, each with its licence in the README there) without
 * a finding, and reports unknown fields as kube-apiserver's strict decoding of
 * apiextensions/v1 does, including where it does not (inside `items` and
 * `additionalProperties`, which apiextensions/v1 marshal.go decodes with a non-strict
 * json.Unmarshal).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { schemaNameOf } from '../../../src/server/openapi/openapi-schemas.js';
import { decoderStrictErrors } from '../../../src/server/schema/decoder-errors.js';
import { checkerOf, runCheck } from '../../../src/server/schema/typed-check.js';

const CRD = schemaNameOf({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' });
const FIXTURES = new URL('../../../support/fixtures/crds/', import.meta.url);

/** Every CustomResourceDefinition document of the fixtures, by file. */
function fixtureCrds(): Array<[string, Record<string, unknown>]> {
  const found: Array<[string, Record<string, unknown>]> = [];
  for (const file of readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    for (const doc of parseAllDocuments(readFileSync(new URL(file, FIXTURES), 'utf8'))) {
      const obj = doc.toJSON() as Record<string, unknown> | null;
      if (obj?.kind === 'CustomResourceDefinition') found.push([file, obj]);
    }
  }
  return found;
}

/** The strict-decoding errors kube-apiserver would give for `obj`, as the write handlers word them. */
function strictErrors(obj: unknown): readonly string[] {
  const check = checkerOf(CRD);
  if (!check) throw new Error(`no checker for ${CRD}`);
  return decoderStrictErrors(runCheck(check, obj));
}

// Not the shared Widget (test/helpers/widget.ts): this schema is what the typed check is tested on
// (an enum holding a string among integers, int-or-string, a set list, free and typed maps, a CEL rule).
const widgetCrd = () => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                default: { size: 1 },
                properties: {
                  size: { type: 'integer', enum: [1, 2, 'x'], example: 2 },
                  port: { 'x-kubernetes-int-or-string': true },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  free: { type: 'object', additionalProperties: true },
                },
                'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'positive' }],
              },
            },
          },
        },
      },
    ],
  },
});

describe('the CustomResourceDefinition type', () => {
  it('is in the table under its upstream name', () => {
    expect(CRD).toBe('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
    expect(checkerOf(CRD)).toBeDefined();
  });

  const crds = fixtureCrds();
  it('has real CRDs to read', () => {
    expect(crds.length).toBeGreaterThanOrEqual(4);
  });
  for (const [file, crd] of crds) {
    it(`reads ${file} with no finding`, () => {
      const before = structuredClone(crd);
      expect(strictErrors(crd)).toEqual([]);
      expect(crd).toEqual(before);
    });
  }

  it('takes any JSON in default, example and enum, and every x-kubernetes-* extension', () => {
    expect(strictErrors(widgetCrd())).toEqual([]);
  });

  it('reports unknown fields of the CRD, of a version, and of a schema under properties', () => {
    const crd = widgetCrd() as Record<string, any>;
    crd.spec.colour = 'red';
    crd.spec.versions[0].subresources.status.extra = true;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.propertys = {};
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.maximun = 3;
    // In document order, as the decoder meets them.
    expect(strictErrors(crd)).toEqual([
      'unknown field "spec.versions[0].subresources.status.extra"',
      'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.maximun"',
      'unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.propertys"',
      'unknown field "spec.colour"',
    ]);
  });

  it('does not see into items and additionalProperties, whose UnmarshalJSON decodes them non-strictly', () => {
    const crd = widgetCrd() as Record<string, any>;
    const props = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    props.tags.items.typo = 1;
    props.labels.additionalProperties.typo = 1;
    expect(strictErrors(crd)).toEqual([]);
  });
});
