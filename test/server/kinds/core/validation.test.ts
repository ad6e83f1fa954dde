import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { findByKind } from '../../../../src/server/kinds/served/registry.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { check } from '../validation-fixture.js';

describe('ConfigMap and Secret', () => {
  it('check data keys', () => {
    expect(
      check('v1', 'ConfigMap', { metadata: { name: 'c' }, data: { 'app.conf': 'x', ok_KEY: 'y' } }),
    ).toEqual([]);
    expect(check('v1', 'ConfigMap', { metadata: { name: 'c' }, data: { 'a b': 'x', '..x': 'y' } })).toEqual([
      "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[..x]: Invalid value: "..x": must not start with \'..\'',
    ]);
    expect(
      check('v1', 'ConfigMap', { metadata: { name: 'c' }, data: { k: 'x' }, binaryData: { k: 'eA==' } }),
    ).toEqual([
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
      'binaryData[k]: Invalid value: "k": duplicate of key present in data',
    ]);
    expect(
      check('v1', 'ConfigMap', { metadata: { name: 'c' }, data: { k: 'x'.repeat(1024 * 1024 + 1) } }),
    ).toEqual([': Too long: may not be more than 1048576 bytes']);
  });

  it('check secret types', () => {
    expect(check('v1', 'Secret', { metadata: { name: 's' }, stringData: { password: 'p' } })).toEqual([]);
    expect(
      check('v1', 'Secret', {
        metadata: { name: 's' },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': 'eA==' },
      }),
    ).toEqual(['data[tls.key]: Required value']);
    expect(check('v1', 'Secret', { metadata: { name: 's' }, data: { '/etc': 'eA==' } })[0]).toMatch(
      /^data\[\/etc\]: Invalid value/,
    );
  });

  it('keep immutable data and secret types on update', () => {
    const cm = findByKind('v1', 'ConfigMap')!;
    const old: KubeObject = { immutable: true, data: { a: '1' } };
    expect(cm.validateUpdate!({ immutable: true, data: { a: '1' } }, old)).toEqual([]);
    expect(cm.validateUpdate!({ data: { a: '2' } }, old).map(fieldErrorText)).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(cm.validateUpdate!({ data: { a: '2' } }, { data: { a: '1' } })).toEqual([]);
    const secret = findByKind('v1', 'Secret')!;
    expect(
      secret.validateUpdate!({ type: 'Opaque' }, { type: 'kubernetes.io/tls' }).map(fieldErrorText),
    ).toEqual(['type: Invalid value: "Opaque": field is immutable']);
  });
});

describe('Event, Lease, Node', () => {
  it('check event namespaces and new-style fields', () => {
    const ev = (ns: string, involvedNs: string, extra: Record<string, unknown> = {}): KubeObject => ({
      metadata: { name: 'p.17a', namespace: ns },
      involvedObject: { kind: 'Pod', name: 'p', namespace: involvedNs },
      reason: 'Pulled',
      ...extra,
    });
    expect(check('v1', 'Event', ev('demo', 'demo'))).toEqual([]);
    expect(check('v1', 'Event', ev('default', ''))).toEqual([]);
    expect(check('v1', 'Event', ev('demo', 'other'))).toEqual([
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    ]);
    // core/v1 events need no DNS name, only one a path can carry, checked once the rest passes.
    const named = (name: string, involvedNs = 'demo') => ({
      ...ev('demo', involvedNs),
      metadata: { name, namespace: 'demo' },
    });
    expect(check('v1', 'Event', named('Bad_Name'))).toEqual([]);
    expect(check('v1', 'Event', named('a/b'))).toEqual([
      'metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
    expect(check('v1', 'Event', named('a/b', 'other'))).toEqual([
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    ]);
    // kube also runs the qualified-name check on the empty reportingComponent.
    const errors = check('v1', 'Event', ev('demo', 'demo', { eventTime: '2024-05-01T12:00:00.000000Z' }));
    expect(errors.filter((e) => e.includes('Required value'))).toEqual([
      'reportingComponent: Required value',
      'reportingInstance: Required value',
      'action: Required value',
    ]);
    expect(errors).toContain('reportingComponent: Invalid value: "": name part must be non-empty');
    expect(
      check(
        'v1',
        'Event',
        ev('demo', 'demo', {
          eventTime: '2024-05-01T12:00:00.000000Z',
          reportingComponent: 'kubelet',
          reportingInstance: 'n1',
          action: 'Pull',
        }),
      ),
    ).toEqual([]);
  });

  it('check leases and node taints', () => {
    expect(
      check('coordination.k8s.io/v1', 'Lease', {
        metadata: { name: 'l' },
        spec: { leaseDurationSeconds: 15 },
      }),
    ).toEqual([]);
    expect(
      check('coordination.k8s.io/v1', 'Lease', {
        metadata: { name: 'l' },
        spec: { leaseDurationSeconds: 0 },
      }),
    ).toEqual(['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
    expect(
      check('v1', 'Node', {
        metadata: { name: 'n1' },
        spec: { taints: [{ key: 'k', effect: 'Sometimes' }] },
      }),
    ).toEqual([
      'spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"',
    ]);
  });
});
