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

/** Defaults then validates, as the object layer does; returns `field: message` texts. */
function check(apiVersion: string, kind: string, obj: KubeObject): string[] {
  const k = findByKind(apiVersion, kind)!;
  const copy = structuredClone(obj);
  k.defaults?.(copy);
  return (k.validate?.(copy) ?? []).map(fieldErrorText);
}

function deployment(
  mutate: (d: { metadata: Record<string, unknown>; spec: Record<string, any> }) => void = () => {},
) {
  const d = {
    metadata: { name: 'web', namespace: 'demo' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
      },
    } as Record<string, any>,
  };
  mutate(d);
  return d as KubeObject;
}

const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

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

describe('Pod', () => {
  const pod = (spec: Record<string, unknown>): KubeObject => ({
    metadata: { name: 'p', namespace: 'demo' },
    spec,
  });

  it('accepts a minimal pod', () => {
    expect(check('v1', 'Pod', pod({ containers: [{ name: 'c', image: 'nginx' }] }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no spec containers', {}, ['spec.containers: Required value']],
    [
      'a container name that is not a DNS label',
      { containers: [{ name: 'Web', image: 'x' }] },
      [`spec.containers[0].name: Invalid value: "Web": ${DNS1123_LABEL}`],
    ],
    [
      'an init container clashing with a container',
      { initContainers: [{ name: 'c', image: 'x' }], containers: [{ name: 'c', image: 'y' }] },
      ['spec.containers[0].name: Duplicate value: "c"'],
    ],
    [
      'a bad port',
      { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 70000, protocol: 'HTTP' }] }] },
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'an unknown restart policy',
      { restartPolicy: 'Sometimes', containers: [{ name: 'c', image: 'x' }] },
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"',
      ],
    ],
    [
      'an image with spaces',
      { containers: [{ name: 'c', image: ' nginx' }] },
      ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
    ],
  ])('rejects %s', (_, spec, expected) => {
    expect(check('v1', 'Pod', pod(spec))).toEqual(expected);
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

describe('Service', () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'web' }, spec });

  it('accepts ordinary, headless and ExternalName services', () => {
    expect(
      check('v1', 'Service', svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] })),
    ).toEqual([]);
    expect(check('v1', 'Service', svc({ clusterIP: 'None', selector: { app: 'web' } }))).toEqual([]);
    expect(check('v1', 'Service', svc({ type: 'ExternalName', externalName: 'example.com.' }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no ports', {}, ['spec.ports: Required value']],
    [
      'port 0 (the defaulted targetPort inherits the problem, as in kube)',
      { ports: [{ port: 0 }] },
      [
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'unnamed ports when there are several',
      { ports: [{ port: 80 }, { port: 443, name: 'https' }] },
      ['spec.ports[0].name: Required value'],
    ],
    [
      'duplicate names and ports',
      {
        ports: [
          { port: 80, name: 'a' },
          { port: 80, name: 'a' },
        ],
      },
      ['spec.ports[1].name: Duplicate value: "a"', 'spec.ports[1]: Duplicate value: "80/TCP"'],
    ],
    [
      'an unknown type',
      { type: 'Magic', ports: [{ port: 80 }] },
      [
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    ],
    ['ExternalName without a name', { type: 'ExternalName' }, ['spec.externalName: Required value']],
    [
      'a nodePort on ClusterIP',
      { ports: [{ port: 80, nodePort: 30080 }] },
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
  ])('rejects %s', (_, spec, expected) => {
    expect(check('v1', 'Service', svc(spec))).toEqual(expected);
  });
});

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
