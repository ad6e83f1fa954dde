import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { findByKind } from '../../../src/server/kinds/served/registry.js';
import type { FieldError } from '../../../src/server/kinds/types.js';
import {
  fieldErrorText,
  formatInvalidMessage,
  invalidCauses,
  validateObjectMeta,
} from '../../../src/server/kinds/validation.js';
import { isDNS1123Label, isQualifiedName } from '../../../src/server/kinds/validation-names.js';
import { check, deployment } from './validation-fixture.js';

describe('the 422 message', () => {
  it('has kube-apiserver shape for one error', () => {
    const errors = check(
      'apps/v1',
      'Deployment',
      deployment((d) => (d.spec.replicas = -1)),
    );
    expect(errors).toEqual(['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
    const k = findByKind('apps/v1', 'Deployment')!;
    const fieldErrors = k.validate!(
      (() => {
        const o = deployment((d) => (d.spec.replicas = -1));
        k.defaults!(o);
        return o;
      })(),
    );
    expect(formatInvalidMessage(k, 'web', fieldErrors)).toBe(
      'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(invalidCauses(fieldErrors)).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: -1: must be greater than or equal to 0',
        field: 'spec.replicas',
      },
    ]);
  });

  it('aggregates several errors in brackets, once each', () => {
    const errs: FieldError[] = [
      { type: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' },
      { type: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' },
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: -1: must be greater than or equal to 0',
      },
    ];
    expect(formatInvalidMessage({ kind: 'Pod', group: '' }, 'p', errs)).toBe(
      'Pod "p" is invalid: [spec.selector: Required value, spec.replicas: Invalid value: -1: must be greater than or equal to 0]',
    );
    expect(formatInvalidMessage({ kind: 'Pod', group: '' }, 'p', [])).toBe('Pod "p" is invalid');
  });
});

describe('metadata', () => {
  it('validates labels and annotations', () => {
    const errors = validateObjectMeta({
      metadata: {
        name: 'ok',
        labels: { 'bad key!': 'v', good: 'not valid value' },
        annotations: { 'example.com/Big': 'x'.repeat(300 * 1024) },
      },
    }).map(fieldErrorText);
    expect(errors).toEqual([
      "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "metadata.labels: Invalid value: \"not valid value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });

  it('knows the name rules', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('x'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isQualifiedName('example.com/name')).toEqual([]);
    expect(isQualifiedName('/name')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of/);
  });

  it('uses a DNS label for namespaces and services (RelaxedServiceNameValidation)', () => {
    expect(check('v1', 'Namespace', { metadata: { name: 'a.b' } })).toEqual([
      'metadata.name: Invalid value: "a.b": must not contain dots',
    ]);
    const service = (name: string) =>
      check('v1', 'Service', { metadata: { name }, spec: { ports: [{ port: 80 }] } });
    expect(service('1web')).toEqual([]);
    expect(service('Bad_Name')).toEqual([
      "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});

describe('validation never throws', () => {
  it.each([
    'Namespace',
    'Pod',
    'Node',
    'ConfigMap',
    'Secret',
    'Service',
    'Event',
    'Deployment',
    'ReplicaSet',
    'StatefulSet',
    'DaemonSet',
    'Lease',
  ])('%s on malformed input', (kind) => {
    const apiVersion = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind)
      ? 'apps/v1'
      : kind === 'Lease'
        ? 'coordination.k8s.io/v1'
        : 'v1';
    const k = findByKind(apiVersion, kind)!;
    for (const obj of [
      {},
      { metadata: 'x', spec: 'y', data: 5, status: [] },
      {
        spec: {
          containers: 'no',
          selector: { matchExpressions: [{ key: 'a', operator: 'Like' }] },
          template: 3,
          ports: [null, 1],
        },
      },
    ] as KubeObject[]) {
      k.defaults?.(obj);
      expect(() => k.validate?.(obj)).not.toThrow();
      expect(k.validate?.(obj).length).toBeGreaterThan(0);
    }
  });
});
