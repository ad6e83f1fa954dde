/**
 * RBAC's four kinds: the bindings' defaults, the validation messages (handwritten and the
 * declarative ones that take their place, last) and the Table cells, as kube-apiserver v1.37
 * answers them (the fidelity area rbac compares the same against the reference).
 */
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, now, row } from '../columns-fixture.js';
import { defaulted } from '../defaults-fixture.js';
import { check } from '../validation-fixture.js';

const V1 = 'rbac.authorization.k8s.io/v1';
const RBAC = 'rbac.authorization.k8s.io';

describe('RBAC defaults', () => {
  it('gives the roleRef and User and Group subjects RBAC group, a ServiceAccount none', () => {
    expect(
      defaulted(V1, 'RoleBinding', {
        metadata: { name: 'b' },
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [
          { kind: 'User', name: 'u' },
          { kind: 'Group', name: 'g' },
          { kind: 'ServiceAccount', name: 'sa' },
          { kind: 'User', name: 'x', apiGroup: 'other' },
        ],
      }),
    ).toMatchObject({
      roleRef: { apiGroup: RBAC },
      subjects: [{ apiGroup: RBAC }, { apiGroup: RBAC }, { kind: 'ServiceAccount' }, { apiGroup: 'other' }],
    });
  });
});

describe('RBAC validation', () => {
  it('checks rules, with the declarative required verbs last', () => {
    expect(
      check(V1, 'Role', {
        metadata: { name: 'r', namespace: 'n' },
        rules: [{ apiGroups: [''] }, { nonResourceURLs: ['/x'], verbs: ['get'], resources: ['pods'] }],
      }),
    ).toEqual([
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      'rules[1].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs',
      'rules[1].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
      'rules[0].verbs: Required value',
    ]);
    expect(
      check(V1, 'ClusterRole', {
        metadata: { name: 'a/b' },
        rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }],
      }),
    ).toEqual(['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
  });

  it('checks an aggregation rule', () => {
    expect(check(V1, 'ClusterRole', { metadata: { name: 'c' }, aggregationRule: {} })).toEqual([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    expect(
      check(V1, 'ClusterRole', {
        metadata: { name: 'c' },
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a b'] }] }],
        },
      }),
    ).toEqual([
      expect.stringContaining(
        'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values[0]: Invalid value: "a b"',
      ),
      'aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector.',
    ]);
  });

  it('checks roleRefs and subjects', () => {
    expect(
      check(V1, 'ClusterRoleBinding', {
        metadata: { name: 'b' },
        roleRef: { apiGroup: 'x', kind: 'Role', name: '' },
        subjects: [
          { kind: 'ServiceAccount', name: 'sa', apiGroup: 'x' },
          { kind: 'Robot', name: '' },
        ],
      }),
    ).toEqual([
      'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].apiGroup: Unsupported value: "x": supported values: ""',
      'subjects[0].namespace: Required value',
      'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].name: Required value',
      'roleRef.name: Required value',
    ]);
  });

  it('keeps the roleRef of a binding', () => {
    const k = kind(V1, 'RoleBinding');
    const old = { metadata: { name: 'b' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'a' } };
    const now = { metadata: { name: 'b' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'b' } };
    expect(k.validateUpdate!(now, old).map(fieldErrorText)).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"b"}: field is immutable',
    ]);
    expect(k.validateUpdate!(old, old)).toEqual([]);
  });
});

describe('RBAC cells', () => {
  it('prints a binding role and subjects, a role its creation time', () => {
    const binding = {
      metadata: { name: 'b', creationTimestamp: new Date(now).toISOString() },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
    };
    expect(row(kind(V1, 'ClusterRoleBinding'), binding)).toEqual([
      'ClusterRole/view',
      '0s',
      'alice, bob',
      'g',
      'ns/sa',
    ]);
    expect(
      row(kind(V1, 'Role'), { metadata: { name: 'r', creationTimestamp: '2024-05-01T11:00:00Z' } }),
    ).toEqual(['2024-05-01T11:00:00Z']);
  });
});
