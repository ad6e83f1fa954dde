/**
 * Real CRDs (support/fixtures/crds/) through watchmark's CRD rules: the CRDs broken as kube-apiserver refuses them
 * (real-crds.test.ts says where the rules and words come from).
 */
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';
import { crdOf } from './real-crds-fixture.js';

describe('real CRDs broken as kube-apiserver refuses them', () => {
  const errorsOf = (file: string, change: (crd: Record<string, any>) => void): string[] => {
    const crd = structuredClone(crdOf(file)) as unknown as Record<string, any>;
    change(crd);
    return validateCustomResourceDefinition(crd).map((e) => `${e.field}: ${e.message}`);
  };

  it('Certificate (one version, so its parts sit at spec level): a selectable field naming no field, one repeated', () => {
    // validation.go `ValidateCustomResourceSelectableFields` with cel.ValidFieldPath's error.
    const errs = errorsOf('cert-manager.io_certificates.yaml', (crd) => {
      crd.spec.versions[0].selectableFields.push(
        { jsonPath: '.spec.issuerRef.nope' },
        { jsonPath: '.spec.issuerRef.kind' },
      );
    });
    expect(errs).toEqual([
      'spec.selectableFields[3].jsonPath: Invalid value: ".spec.issuerRef.nope": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[4].jsonPath: Duplicate value: ".spec.issuerRef.kind"',
    ]);
  });

  it('HTTPRoute: a printer column type only v1 has (the versions now differ, so the path names the version)', () => {
    const errs = errorsOf('gateway.networking.k8s.io_httproutes.yaml', (crd) => {
      crd.spec.versions[0].additionalPrinterColumns[0].type = 'text';
    });
    expect(errs).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    ]);
  });

  it.each([
    ['^(?=[0-9])[0-9]+s$', 'invalid or unsupported Perl syntax: `(?=`'],
    ['^([0-9]+)(ms|s)\\1?$', 'invalid escape sequence: `\\1`'],
    ['^[0-9]{1,1001}s$', 'invalid repeat count: `{1,1001}`'],
  ])(
    'Kustomization: an interval pattern %s, which JavaScript compiles and RE2 refuses',
    (pattern, goError) => {
      // pkg/apiserver/schema/validation.go `validateValueValidation`: `regexp.Compile(v.Pattern)`.
      const errs = errorsOf('kustomize.toolkit.fluxcd.io_kustomizations.yaml', (crd) => {
        crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.interval.pattern = pattern;
      });
      expect(errs).toEqual([
        `spec.validation.openAPIV3Schema.properties[spec].properties[interval].pattern: Invalid value: ${JSON.stringify(pattern)}: must be a valid regular expression, but isn't: error parsing regexp: ${goError}`,
      ]);
    },
  );
});
