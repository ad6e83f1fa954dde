/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinitionUpdate } from '../../../../src/server/crd/definition/validation.js';
import { crd, type Json, texts, v0 } from './validation-fixture.js';

describe('validateCustomResourceDefinitionUpdate', () => {
  const established = (c: Json): Json => ({
    ...c,
    status: {
      acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      storedVersions: ['v1'],
      conditions: [{ type: 'Established', status: 'True' }],
    },
  });

  it('accepts an unchanged CRD', () => {
    expect(validateCustomResourceDefinitionUpdate(crd(), established(crd()))).toEqual([]);
  });

  it('keeps group and plural immutable always, scope and kind once Established', () => {
    const changed = crd((c) => {
      c.spec.scope = 'Cluster';
      (c.spec.names as Json).kind = 'Gadget';
      (c.spec.names as Json).listKind = 'GadgetList';
      (c.spec.names as Json).plural = 'gadgets';
      c.metadata = { name: 'gadgets.example.com' };
    });
    expect(texts(validateCustomResourceDefinitionUpdate(changed, established(crd())))).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
    // Before Established, scope and kind may still change (PrepareForUpdate records v1 as stored).
    expect(texts(validateCustomResourceDefinitionUpdate(changed, crd()))).toEqual([
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
  });

  it('refuses dropping a stored version from spec.versions', () => {
    const renamed = crd((c) => {
      v0(c).name = 'v2';
    });
    expect(texts(validateCustomResourceDefinitionUpdate(renamed, established(crd())))).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });
});
