/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { create, type Json } from './validation-fixture.js';

describe('validateCustomResourceDefinition', () => {
  describe('API approval of protected groups', () => {
    const inGroup = (annotations?: Json) =>
      create((c) => {
        c.metadata = { name: 'widgets.apps.k8s.io', annotations };
        c.spec.group = 'apps.k8s.io';
      });
    it('requires the approval annotation', () => {
      expect(inGroup()).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
    });
    it('refuses a value that is neither a URL nor "unapproved..."', () => {
      expect(inGroup({ 'api-approved.kubernetes.io': 'yes' })).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
    });
    it('accepts a URL or an explicit bypass', () => {
      expect(
        inGroup({ 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' }),
      ).toEqual([]);
      expect(inGroup({ 'api-approved.kubernetes.io': 'unapproved, testing only' })).toEqual([]);
    });
  });
});
