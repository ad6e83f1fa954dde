/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';
import { create } from './validation-fixture.js';

describe('real CRDs', () => {
  it("accepts prometheus-operator's PrometheusRule CRD (fixtures/crds/, RE2 inline flags in its patterns)", () => {
    const text = readFileSync(
      new URL(
        '../../../../support/fixtures/crds/monitoring.coreos.com_prometheusrules.yaml',
        import.meta.url,
      ),
      'utf8',
    );
    expect(validateCustomResourceDefinition(parse(text))).toEqual([]);
  });

  it('accepts two versions with their own schemas, status and scale, columns and webhook conversion', () => {
    const schema = (extra: string) => ({
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: { replicas: { type: 'integer', default: 1 }, [extra]: { type: 'string' } },
          },
          status: {
            type: 'object',
            properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
          },
        },
      },
    });
    const version = (name: string, storage: boolean) => ({
      name,
      served: true,
      storage,
      schema: schema(name === 'v1' ? 'color' : 'colour'),
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
      additionalPrinterColumns: [
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: [{ jsonPath: name === 'v1' ? '.spec.color' : '.spec.colour' }],
    });
    expect(
      create((c) => {
        c.spec.versions = [
          version('v1', true),
          { ...version('v2beta1', false), deprecated: true, deprecationWarning: 'use v1' },
        ];
        c.spec.conversion = {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { url: 'https://conv.example.com/convert' },
            conversionReviewVersions: ['v1'],
          },
        };
      }),
    ).toEqual([]);
  });
});
