import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { findByKind } from '../../../../src/server/kinds/served/registry.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { check, DNS1123_SUBDOMAIN, deployment } from '../validation-fixture.js';

describe('Deployment', () => {
  it('accepts a minimal one', () => {
    expect(check('apps/v1', 'Deployment', deployment())).toEqual([]);
  });

  it.each<[string, (d: { metadata: Record<string, unknown>; spec: Record<string, any> }) => void, string[]]>([
    [
      'no selector',
      (d) => delete d.spec.selector,
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'selector not matching',
      (d) => (d.spec.selector = { matchLabels: { app: 'other' } }),
      [
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'empty selector',
      (d) => (d.spec.selector = {}),
      ['spec.selector: Invalid value: {}: empty selector is invalid for deployment'],
    ],
    [
      'no containers',
      (d) => (d.spec.template.spec.containers = []),
      ['spec.template.spec.containers: Required value'],
    ],
    [
      'container without name and image',
      (d) => (d.spec.template.spec.containers = [{}]),
      [
        'spec.template.spec.containers[0].name: Required value',
        'spec.template.spec.containers[0].image: Required value',
      ],
    ],
    [
      'duplicate container names',
      (d) => d.spec.template.spec.containers.push({ name: 'nginx', image: 'b' }),
      ['spec.template.spec.containers[1].name: Duplicate value: "nginx"'],
    ],
    [
      'bad strategy type',
      (d) => (d.spec.strategy = { type: 'BlueGreen' }),
      ['spec.strategy.type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"'],
    ],
    [
      'Recreate with rollingUpdate',
      (d) => (d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }),
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'zero surge and zero unavailable',
      (d) => (d.spec.strategy = { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0'],
    ],
    [
      'bad percent',
      (d) => (d.spec.strategy = { rollingUpdate: { maxSurge: 'lots' } }),
      [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
    [
      'restartPolicy Never',
      (d) => (d.spec.template.spec.restartPolicy = 'Never'),
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'progress deadline not above minReadySeconds',
      (d) => Object.assign(d.spec, { minReadySeconds: 10, progressDeadlineSeconds: 10 }),
      ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
    ],
    [
      'bad name',
      (d) => (d.metadata.name = 'Web_1'),
      [`metadata.name: Invalid value: "Web_1": ${DNS1123_SUBDOMAIN}`],
    ],
    [
      'no name',
      (d) => delete d.metadata.name,
      ['metadata.name: Required value: name or generateName is required'],
    ],
  ])('rejects %s', (_, mutate, expected) => {
    expect(check('apps/v1', 'Deployment', deployment(mutate))).toEqual(expected);
  });

  it('forbids changing the selector on update', () => {
    const k = findByKind('apps/v1', 'Deployment')!;
    const old = deployment();
    const changed = deployment((d) => (d.spec.selector = { matchLabels: { app: 'web', tier: 'x' } }));
    expect(k.validateUpdate!(old, old)).toEqual([]);
    expect(k.validateUpdate!(changed, old).map(fieldErrorText)).toEqual([
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable',
    ]);
  });
});

describe('ReplicaSet, StatefulSet, DaemonSet', () => {
  const base = () => structuredClone(deployment().spec as Record<string, any>);

  it('accept minimal objects', () => {
    expect(check('apps/v1', 'ReplicaSet', { metadata: { name: 'rs' }, spec: base() })).toEqual([]);
    expect(
      check('apps/v1', 'StatefulSet', { metadata: { name: 'sts' }, spec: { ...base(), serviceName: 'web' } }),
    ).toEqual([]);
    expect(check('apps/v1', 'DaemonSet', { metadata: { name: 'ds' }, spec: base() })).toEqual([]);
  });

  it('reject bad specs', () => {
    expect(
      check('apps/v1', 'ReplicaSet', { metadata: { name: 'rs' }, spec: { ...base(), replicas: -2 } }),
    ).toEqual(['spec.replicas: Invalid value: -2: must be greater than or equal to 0']);
    expect(
      check('apps/v1', 'StatefulSet', {
        metadata: { name: 'sts' },
        spec: { ...base(), podManagementPolicy: 'Random' },
      }),
    ).toEqual(["spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"]);
    expect(
      check('apps/v1', 'DaemonSet', {
        metadata: { name: 'ds' },
        spec: {
          ...base(),
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } },
        },
      }),
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    ]);
    expect(
      check('apps/v1', 'DaemonSet', { metadata: { name: 'ds' }, spec: { ...base(), selector: {} } }),
    ).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for daemonset']);
    // ValidateDaemonSetSpec has no Required for a missing selector: nil selects nothing.
    const noSelector = { metadata: { name: 'ds' }, spec: { ...base(), selector: undefined } };
    expect(check('apps/v1', 'DaemonSet', noSelector).map((e) => e.split(': Invalid value')[0])).toEqual([
      'spec.template.metadata.labels',
    ]);
  });

  it('StatefulSet names are DNS labels; internal structs print with Go field names', () => {
    const sts = (name: string, spec: Record<string, unknown> = {}) =>
      check('apps/v1', 'StatefulSet', {
        metadata: { name },
        spec: { ...base(), serviceName: 'web', ...spec },
      });
    expect(sts('a.b')).toEqual(['metadata.name: Invalid value: "a.b": must not contain dots']);
    // Probed from kube-apiserver v1.37.2.
    expect(sts('s', { updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } } })).toEqual([
      'spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":2,"MaxUnavailable":null}: only allowed for updateStrategy \'RollingUpdate\'',
    ]);
    expect(sts('s', { updateStrategy: { type: 'Bad<' } })).toEqual([
      'spec.updateStrategy: Invalid value: {"Type":"Bad\\u003c","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\'',
    ]);
  });

  it('a changed selector prints as metav1.LabelSelector marshals', () => {
    const k = findByKind('apps/v1', 'Deployment')!;
    const selector = {
      matchExpressions: [{ values: [], operator: 'Exists', key: 'tier' }],
      matchLabels: { app: 'x' },
    };
    const errors = k.validateUpdate!({ spec: { ...base(), selector } }, { spec: base() });
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toContain(
      'spec.selector: Invalid value: {"matchLabels":{"app":"x"},"matchExpressions":[{"key":"tier","operator":"Exists"}]}: field is immutable',
    );
  });

  it('StatefulSet updates may only touch the mutable fields', () => {
    const k = findByKind('apps/v1', 'StatefulSet')!;
    const old: KubeObject = { spec: { ...base(), serviceName: 'web', replicas: 1 } };
    expect(k.validateUpdate!({ spec: { ...base(), serviceName: 'web', replicas: 5 } }, old)).toEqual([]);
    expect(k.validateUpdate!({ spec: { ...base(), serviceName: 'db' } }, old).map((e) => e.field)).toEqual([
      'spec',
    ]);
  });
});
