/**
 * Real CRDs (support/fixtures/crds/) through watchmark's CRD rules: the defaults they declare
 * (real-crds.test.ts says where the rules and words come from).
 */
import { describe, expect, it } from 'vitest';
import { loadExampleObjects } from '../../../../support/fixtures/crds/index.js';
import { schemaOf, versionOf } from './real-crds-fixture.js';

describe('defaults the real CRDs declare', () => {
  const defaulted = (file: string, example: string): Record<string, any> => {
    const obj = structuredClone(loadExampleObjects(example)[0]!) as Record<string, any>;
    schemaOf(file, versionOf(obj)).default(obj);
    return obj;
  };

  it('HTTPRoute: parentRefs and backendRefs get their group and kind, a rule without matches matches PathPrefix /', () => {
    const file = 'gateway.networking.k8s.io_httproutes.yaml';
    expect(defaulted(file, 'httproutes-example.yaml').spec).toEqual({
      parentRefs: [{ name: 'example-gateway', group: 'gateway.networking.k8s.io', kind: 'Gateway' }],
      hostnames: ['foo.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/login' } }],
          backendRefs: [{ name: 'foo-svc', port: 8080, group: '', kind: 'Service', weight: 1 }],
        },
      ],
    });
    expect(defaulted(file, 'httproutes-example-rewrite.yaml').spec.rules).toEqual([
      {
        filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'elsewhere.example' } }],
        backendRefs: [{ name: 'example-svc', weight: 1, port: 80, group: '', kind: 'Service' }],
        matches: [{ path: { type: 'PathPrefix', value: '/' } }],
      },
    ]);
  });

  it('HTTPRoute: a route without rules gets the one default rule', () => {
    const obj = structuredClone(loadExampleObjects('httproutes-example.yaml')[0]!) as Record<string, any>;
    delete obj.spec.rules;
    schemaOf('gateway.networking.k8s.io_httproutes.yaml', 'v1').default(obj);
    expect(obj.spec.rules).toEqual([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]);
  });

  it("Kustomization: spec.force, and the root's status default", () => {
    const obj = defaulted('kustomize.toolkit.fluxcd.io_kustomizations.yaml', 'kustomizations-example.yaml');
    expect(obj.spec.force).toBe(false);
    expect(obj.status).toEqual({ observedGeneration: -1 });
  });

  it('ConstraintTemplate and CompositeResourceDefinition: defaults inside spec', () => {
    const template = defaulted(
      'templates.gatekeeper.sh_constrainttemplates.yaml',
      'constrainttemplates-example.yaml',
    );
    expect(template.spec.crd.spec.validation.legacySchema).toBe(false);
    const xrd = defaulted(
      'apiextensions.crossplane.io_compositeresourcedefinitions.yaml',
      'compositeresourcedefinitions-example.yaml',
    );
    expect(xrd.spec).toMatchObject({ scope: 'Cluster', defaultCompositionUpdatePolicy: 'Automatic' });
  });
});
