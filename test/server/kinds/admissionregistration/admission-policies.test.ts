import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  mutatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  validatingAdmissionPolicyKind,
} from '../../../../src/server/kinds/admissionregistration/admission-policies.js';
import type { ResourceKind } from '../../../../src/server/kinds/types.js';

const rules = () => ({
  resourceRules: [
    { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
  ],
});

function vap(spec: Record<string, unknown>, name = 'demo'): KubeObject {
  return { metadata: { name }, spec: { matchConstraints: rules(), ...spec } } as KubeObject;
}

function errorsOf(kind: ResourceKind, obj: KubeObject): string[] {
  kind.defaults?.(obj);
  return (kind.validate?.(obj) ?? []).map((e) => `${e.field}: ${e.message}`);
}

function cells(kind: ResourceKind, obj: KubeObject): unknown[] {
  return kind.columns.map((c) => c.cell(obj, Date.now()));
}

describe('ValidatingAdmissionPolicy', () => {
  it('defaults the failure policy and the match constraints', () => {
    const obj = vap({ validations: [{ expression: 'true' }] });
    validatingAdmissionPolicyKind.defaults?.(obj);
    expect(obj.spec).toMatchObject({
      failurePolicy: 'Fail',
      matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    });
    expect(
      (obj.spec as { matchConstraints: ReturnType<typeof rules> }).matchConstraints.resourceRules[0],
    ).toMatchObject({ scope: '*' });
  });

  it('wants validations or audit annotations', () => {
    expect(errorsOf(validatingAdmissionPolicyKind, vap({}))).toEqual([
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
  });

  it('refuses an expression naming an undeclared variable, as cel-go words it', () => {
    expect(
      errorsOf(validatingAdmissionPolicyKind, vap({ validations: [{ expression: 'foo.bar == 1' }] })),
    ).toEqual([
      `spec.validations[0].expression: Invalid value: "foo.bar == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo.bar == 1\n | ^`,
    ]);
  });

  it('knows params only with a paramKind', () => {
    const expr = { validations: [{ expression: 'object.spec.replicas <= params.max' }] };
    expect(errorsOf(validatingAdmissionPolicyKind, vap(expr))).toHaveLength(1);
    expect(
      errorsOf(
        validatingAdmissionPolicyKind,
        vap({ ...expr, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }),
      ),
    ).toEqual([]);
  });

  it('refuses a name kept for static configurations', () => {
    expect(
      errorsOf(
        validatingAdmissionPolicyKind,
        vap({ validations: [{ expression: 'true' }] }, 'x.static.k8s.io'),
      ),
    ).toEqual([
      'metadata.name: Invalid value: "x.static.k8s.io": names ending with ".static.k8s.io" are reserved for static manifest-based configurations and cannot be managed via the API',
    ]);
  });

  it('prints the validations and the param kind', () => {
    const obj = vap({
      validations: [{ expression: 'true' }],
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    });
    expect(cells(validatingAdmissionPolicyKind, obj).slice(0, 2)).toEqual([1, 'v1/ConfigMap']);
  });
});

describe('MutatingAdmissionPolicy', () => {
  it('refuses DELETE and a missing reinvocation policy', () => {
    const obj = vap({
      matchConstraints: { resourceRules: [{ ...rules().resourceRules[0], operations: ['DELETE'] }] },
      mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: '[]' } }],
    });
    expect(errorsOf(mutatingAdmissionPolicyKind, obj)).toEqual([
      'spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"',
      'spec.reinvocationPolicy: Required value',
    ]);
  });
});

describe('ValidatingAdmissionPolicyBinding', () => {
  it('checks the param reference and the actions', () => {
    const obj = {
      metadata: { name: 'b' },
      spec: { policyName: 'p', paramRef: { name: 'a', selector: {} }, validationActions: ['Deny', 'Warn'] },
    } as KubeObject;
    expect(errorsOf(validatingAdmissionPolicyBindingKind, obj)).toEqual([
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Required value',
      'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
  });

  it('prints the param reference', () => {
    const obj = {
      metadata: { name: 'b' },
      spec: { policyName: 'p', paramRef: { name: 'cfg' } },
    } as KubeObject;
    expect(cells(validatingAdmissionPolicyBindingKind, obj).slice(0, 2)).toEqual(['p', '*/cfg']);
  });
});
