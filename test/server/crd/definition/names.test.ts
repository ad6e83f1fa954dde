/**
 * The names controller's decision (apiextensions-apiserver naming_controller.go
 * `calculateNamesAndConditions`) and the establishing controller's
 * (establishing_controller.go `sync`): accepted names and the exact
 * NamesAccepted and Established conditions.
 */
import { describe, expect, it } from 'vitest';
import { apiApprovalCondition } from '../../../../src/server/crd/definition/conditions.js';
import {
  acceptedNamesForGroup,
  establish,
  namesAndConditions,
  setCondition,
} from '../../../../src/server/crd/definition/names.js';
import { REGISTRY } from '../../../../src/server/kinds/served/registry.js';

type Names = {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
};

/** A CRD of `group` requesting `names`, with `accepted` already in its status. */
function crd(group: string, names: Names, accepted?: Names, conditions: unknown[] = []) {
  return {
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, names },
    status: { acceptedNames: accepted ?? { plural: '', kind: '' }, conditions },
  };
}

const widgets: Names = {
  plural: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  shortNames: ['wd'],
};
const existing = crd('example.com', widgets, widgets);

describe('namesAndConditions', () => {
  it('accepts every name of a conflict-free CRD, Established still False (Installing)', () => {
    const fresh = crd('example.com', { ...widgets, categories: ['all'] });
    const decision = namesAndConditions(fresh, acceptedNamesForGroup('example.com', [fresh]));
    expect(decision).toEqual({
      acceptedNames: { ...widgets, categories: ['all'] },
      namesAccepted: {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      established: {
        type: 'Established',
        status: 'False',
        reason: 'Installing',
        message: 'the initial names have been accepted',
      },
    });
  });

  it.each<[string, Names, string, string, Partial<Names>]>([
    [
      'plural taken',
      { plural: 'widgets', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      'PluralConflict',
      '"widgets" is already in use',
      { plural: '', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    ],
    [
      'singular taken (as another CRD plural)',
      { plural: 'gizmos', singular: 'widgets', kind: 'Gizmo', listKind: 'GizmoList' },
      'SingularConflict',
      '"widgets" is already in use',
      { plural: 'gizmos', kind: 'Gizmo', listKind: 'GizmoList' },
    ],
    [
      'short names taken',
      {
        plural: 'gizmos',
        singular: 'gizmo',
        kind: 'Gizmo',
        listKind: 'GizmoList',
        shortNames: ['wd', 'gz', 'widget'],
      },
      'ShortNamesConflict',
      '["wd" is already in use, "widget" is already in use]',
      { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
    ],
    [
      'kind taken',
      { plural: 'gizmos', singular: 'gizmo', kind: 'Widget', listKind: 'GizmoList' },
      'KindConflict',
      '"Widget" is already in use',
      { plural: 'gizmos', singular: 'gizmo', kind: '', listKind: 'GizmoList' },
    ],
    [
      'list kind taken (the last conflict names the reason)',
      { plural: 'widgets', singular: 'gizmo', kind: 'Gizmo', listKind: 'WidgetList' },
      'ListKindConflict',
      '"WidgetList" is already in use',
      { plural: '', singular: 'gizmo', kind: 'Gizmo' },
    ],
  ])('%s', (_name, names, reason, message, accepted) => {
    const next = crd('example.com', names);
    const decision = namesAndConditions(next, acceptedNamesForGroup('example.com', [existing, next]));
    expect(decision.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'False', reason, message });
    expect(decision.established).toEqual({
      type: 'Established',
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    });
    expect(decision.acceptedNames).toEqual(accepted);
  });

  it('ignores CRDs of other groups, and a CRD never conflicts with its own accepted names', () => {
    const other = crd('other.io', widgets, widgets);
    const fresh = crd('example.com', widgets);
    expect(
      namesAndConditions(fresh, acceptedNamesForGroup('example.com', [other, fresh])).namesAccepted.status,
    ).toBe('True');
    const decided = namesAndConditions(existing, acceptedNamesForGroup('example.com', [existing]));
    expect(decided.namesAccepted.reason).toBe('NoConflicts');
    expect(decided.acceptedNames).toEqual(widgets);
  });

  it('keeps an Established condition that is already True', () => {
    const live = crd('example.com', widgets, widgets, [
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' },
    ]);
    expect(namesAndConditions(live, acceptedNamesForGroup('example.com', [live])).established).toEqual({
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
    });
  });

  it('counts built-in names when a caller passes them', () => {
    const fresh = crd('apps.example.com', {
      plural: 'deployments',
      singular: 'deployment',
      kind: 'Deployment',
      listKind: 'DeploymentList',
    });
    const inUse = acceptedNamesForGroup(
      'apps.example.com',
      [fresh],
      [{ plural: 'deployments', singular: 'deployment', kind: 'Deployment', shortNames: ['deploy'] }],
    );
    expect(namesAndConditions(fresh, inUse).namesAccepted).toEqual({
      type: 'NamesAccepted',
      status: 'False',
      reason: 'KindConflict',
      message: '"Deployment" is already in use',
    });
  });
});

describe('built-in kinds as claimed names', () => {
  it("takes a group's built-in resources straight from the kind registry", () => {
    const group = 'apps';
    const fresh = crd(group, {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['deploy'],
    });
    const inUse = acceptedNamesForGroup(
      group,
      [fresh],
      REGISTRY.filter((k) => k.group === group),
    );
    expect(namesAndConditions(fresh, inUse).namesAccepted).toEqual({
      type: 'NamesAccepted',
      status: 'False',
      reason: 'ShortNamesConflict',
      message: '"deploy" is already in use',
    });
  });
});

describe('establish and setCondition', () => {
  it('turns Established True once names are accepted, and only then', () => {
    const accepted = {
      type: 'NamesAccepted',
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    };
    expect(establish([accepted])).toEqual({
      type: 'Established',
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
    expect(establish([{ ...accepted, status: 'False' }])).toBeUndefined();
    expect(establish([accepted, { type: 'Established', status: 'True' }])).toBeUndefined();
  });

  it('stamps lastTransitionTime only when the status changes', () => {
    const t0 = '2026-01-01T00:00:00Z';
    const t1 = '2026-01-01T00:00:01Z';
    const first = setCondition([], { type: 'Established', status: 'False', reason: 'Installing' }, t0);
    expect(first).toEqual([
      { type: 'Established', status: 'False', reason: 'Installing', lastTransitionTime: t0 },
    ]);
    const same = setCondition(first, { type: 'Established', status: 'False', reason: 'NotAccepted' }, t1);
    expect(same[0]).toMatchObject({ reason: 'NotAccepted', lastTransitionTime: t0 });
    const flipped = setCondition(
      same,
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted' },
      t1,
    );
    expect(flipped[0]).toMatchObject({ status: 'True', lastTransitionTime: t1 });
  });
});

describe('apiApprovalCondition', () => {
  const inGroup = (group: string, annotation?: string) => ({
    metadata: { annotations: annotation === undefined ? {} : { 'api-approved.kubernetes.io': annotation } },
    spec: { group },
  });
  const pr = 'see https://github.com/kubernetes/enhancements/pull/1111';

  it('sets nothing outside k8s.io and kubernetes.io', () => {
    expect(apiApprovalCondition(inGroup('example.com'))).toBeUndefined();
    expect(apiApprovalCondition(inGroup('notk8s.io'))).toBeUndefined();
  });

  it.each<[string | undefined, string, string, string]>([
    [
      undefined,
      'False',
      'MissingAnnotation',
      `protected groups must have approval annotation "api-approved.kubernetes.io", ${pr}`,
    ],
    [
      'https://github.com/kubernetes/kubernetes/pull/78458',
      'True',
      'ApprovedAnnotation',
      'approved in https://github.com/kubernetes/kubernetes/pull/78458',
    ],
    ['unapproved, experimental', 'False', 'UnapprovedAnnotation', 'not approved: "unapproved, experimental"'],
    [
      'yes',
      'False',
      'InvalidAnnotation',
      `protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", ${pr}`,
    ],
  ])('annotation %s', (annotation, status, reason, message) => {
    expect(apiApprovalCondition(inGroup('widgets.k8s.io', annotation))).toEqual({
      type: 'KubernetesAPIApprovalPolicyConformant',
      status,
      reason,
      message,
    });
  });
});
