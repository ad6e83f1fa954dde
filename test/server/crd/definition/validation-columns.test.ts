/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { create, v0 } from './validation-fixture.js';

describe('validateCustomResourceDefinition', () => {
  describe('printer columns and subresources', () => {
    it('reports column name, type, format and jsonPath', () => {
      expect(
        create((c) => {
          v0(c).additionalPrinterColumns = [
            { name: 'Color', type: 'text', jsonPath: '.spec.color' },
            { type: 'string', format: 'uuid', jsonPath: 'spec.color' },
            { name: 'Size', type: '', jsonPath: '' },
          ];
        }),
      ).toEqual([
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[1].name: Required value',
        'spec.additionalPrinterColumns[1].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.color": must be a simple json path starting with .',
        'spec.additionalPrinterColumns[2].type: Required value: must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[2].JSONPath: Required value',
      ]);
    });

    it('reports scale paths outside .spec and .status', () => {
      expect(
        create((c) => {
          v0(c).subresources = {
            status: {},
            scale: {
              specReplicasPath: '.status.replicas',
              statusReplicasPath: 'status.replicas',
              labelSelectorPath: '.metadata.labels',
            },
          };
        }),
      ).toEqual([
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ]);
    });

    it('accepts status and scale subresources with good paths', () => {
      expect(
        create((c) => {
          v0(c).subresources = {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' },
          };
        }),
      ).toEqual([]);
    });
  });
});
