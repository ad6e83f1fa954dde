import { describe, expect, it } from 'vitest';
import {
  applyStrategicMergePatch,
  fieldStrategyFor,
  isStrategicMergeKind,
  mergeKeyFor,
} from '../../../src/protocol/patch/strategic.js';
import { StatusError } from '../../../src/protocol/status.js';

type Obj = Record<string, unknown>;

/** A live Deployment as the server stores it (server-set fields included). */
function liveDeployment(): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'demo',
      uid: 'u1',
      resourceVersion: '7',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['a', 'b'],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              imagePullPolicy: 'IfNotPresent',
            },
            { name: 'd', image: 'busybox' },
          ],
          tolerations: [{ key: 'k', operator: 'Exists' }],
          volumes: [{ name: 'v', emptyDir: {} }],
        },
      },
    },
    status: { conditions: [{ type: 'Available', status: 'True' }], replicas: 1 },
  };
}

function podSpec(obj: unknown): Obj {
  return ((obj as Obj).spec as Obj & { template: { spec: Obj } }).template.spec;
}

function containers(obj: unknown): Obj[] {
  return podSpec(obj).containers as Obj[];
}

function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('expected a StatusError');
}

/** True when no key anywhere in `value` is a patch directive. */
function noDirectives(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(noDirectives);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([k, v]) => !k.startsWith('$') && noDirectives(v));
  }
  return true;
}

describe('applyStrategicMergePatch: kubectl bodies (kubectl-needs.md §5, §9)', () => {
  it('apply configure path: the exact body from §5', () => {
    const body = JSON.parse(
      '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"x\\":1}\\n"}},"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"image":"nginx:1.1","name":"c"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as Obj;
    const expected = liveDeployment();
    (expected.metadata as Obj).annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': '{"x":1}\n',
    };
    (expected.spec as Obj).replicas = 2;
    containers(expected)[0].image = 'nginx:1.1';
    expect(result).toEqual(expected);
    expect(noDirectives(result)).toBe(true);
  });

  it('set image: the exact body kubectl set image sends', () => {
    const body = JSON.parse(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"image":"nginx:2","name":"c"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment');
    // Only c is named in the order list; d is server-only and keeps its place after c.
    expect(containers(result).map((c) => [c.name, c.image])).toEqual([
      ['c', 'nginx:2'],
      ['d', 'busybox'],
    ]);
    expect(containers(result)[0].env).toEqual(containers(liveDeployment())[0].env);
  });

  it('"labels":null and "env":null remove the whole field', () => {
    const body = {
      metadata: { labels: null },
      spec: { template: { spec: { containers: [{ name: 'c', env: null }] } } },
    };
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as Obj;
    expect((result.metadata as Obj).labels).toBeUndefined();
    expect('env' in containers(result)[0]).toBe(false);
    expect(containers(result)[0].image).toBe('nginx:1');
  });

  it('{"$patch":"delete","name":"d"} inside containers deletes that container', () => {
    const body = JSON.parse(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"$patch":"delete","name":"d"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment');
    expect(containers(result).map((c) => c.name)).toEqual(['c']);
    expect(noDirectives(result)).toBe(true);
  });

  it('scale and label bodies (merge-patch on the wire) mean the same as strategic patches', () => {
    const scaled = applyStrategicMergePatch(liveDeployment(), { spec: { replicas: 3 } }, 'Deployment') as Obj;
    expect((scaled.spec as Obj).replicas).toBe(3);
    const unlabeled = applyStrategicMergePatch(
      liveDeployment(),
      { metadata: { labels: { tier: null } } },
      'Deployment',
    );
    expect(((unlabeled as Obj).metadata as Obj).labels).toEqual({ app: 'web' });
  });
});

describe('applyStrategicMergePatch: merge lists', () => {
  const cases: Array<[string, string, Obj, Obj, Obj]> = [
    [
      'env merges by name, new entries first (upstream order rule)',
      'Pod',
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'B', value: 'x' },
                { name: 'C', value: '3' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: 'x' },
                { name: 'C', value: '3' },
              ],
            },
          ],
        },
      },
    ],
    [
      'a new container lands before server-only ones',
      'Pod',
      { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      { spec: { containers: [{ name: 'n', image: 'x' }] } },
      { spec: { containers: [{ name: 'n', image: 'x' }, { name: 'a' }, { name: 'b' }] } },
    ],
    [
      'container ports merge by containerPort',
      'Pod',
      { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http' }] }] } },
      { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
      {
        spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }] }] },
      },
    ],
    [
      'volumeMounts by mountPath, volumeDevices by devicePath',
      'Pod',
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', name: 'x' }],
              volumeDevices: [{ devicePath: '/d', name: 'y' }],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', readOnly: true }],
              volumeDevices: [{ devicePath: '/d', name: 'z' }],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              volumeMounts: [{ mountPath: '/a', name: 'x', readOnly: true }],
              volumeDevices: [{ devicePath: '/d', name: 'z' }],
            },
          ],
        },
      },
    ],
    [
      'tolerations have no merge key: replaced',
      'Pod',
      { spec: { tolerations: [{ key: 'a' }, { key: 'b' }] } },
      { spec: { tolerations: [{ key: 'c' }] } },
      { spec: { tolerations: [{ key: 'c' }] } },
    ],
    [
      'finalizers are a set of primitives',
      'ConfigMap',
      { metadata: { finalizers: ['a', 'b'] } },
      { metadata: { finalizers: ['b', 'c'] } },
      { metadata: { finalizers: ['a', 'b', 'c'] } },
    ],
    [
      '$deleteFromPrimitiveList removes from a set',
      'ConfigMap',
      { metadata: { finalizers: ['a', 'b', 'c'] } },
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zz'] } },
      { metadata: { finalizers: ['a', 'c'] } },
    ],
    [
      'ownerReferences merge by uid',
      'ReplicaSet',
      { metadata: { ownerReferences: [{ uid: '1', name: 'a' }] } },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', controller: true },
            { uid: '2', name: 'b' },
          ],
        },
      },
      {
        metadata: {
          ownerReferences: [
            { uid: '1', name: 'a', controller: true },
            { uid: '2', name: 'b' },
          ],
        },
      },
    ],
    [
      'service ports merge by port',
      'Service',
      { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } },
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } },
    ],
    [
      'node addresses and conditions merge by type',
      'Node',
      {
        status: {
          addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
          conditions: [{ type: 'Ready', status: 'False' }],
        },
      },
      {
        status: {
          addresses: [{ type: 'Hostname', address: 'n1' }],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
      {
        status: {
          addresses: [
            { type: 'Hostname', address: 'n1' },
            { type: 'InternalIP', address: '10.0.0.1' },
          ],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ],
    [
      'StatefulSet and DaemonSet share the pod template table',
      'DaemonSet',
      {
        spec: {
          template: { spec: { volumes: [{ name: 'a', emptyDir: {} }], imagePullSecrets: [{ name: 's' }] } },
        },
      },
      {
        spec: {
          template: { spec: { volumes: [{ name: 'b', emptyDir: {} }], imagePullSecrets: [{ name: 't' }] } },
        },
      },
      {
        spec: {
          template: {
            spec: {
              volumes: [
                { name: 'b', emptyDir: {} },
                { name: 'a', emptyDir: {} },
              ],
              imagePullSecrets: [{ name: 't' }, { name: 's' }],
            },
          },
        },
      },
    ],
    [
      'duplicate merge keys in a list new to the object are kept (53/TCP + 53/UDP)',
      'Pod',
      { spec: { containers: [{ name: 'c' }] } },
      {
        spec: {
          containers: [
            {
              name: 'c',
              ports: [
                { containerPort: 53, protocol: 'TCP' },
                { containerPort: 53, protocol: 'UDP' },
              ],
            },
          ],
        },
      },
      {
        spec: {
          containers: [
            {
              name: 'c',
              ports: [
                { containerPort: 53, protocol: 'TCP' },
                { containerPort: 53, protocol: 'UDP' },
              ],
            },
          ],
        },
      },
    ],
    [
      'unknown kinds replace lists like JSON merge patch',
      'Widget',
      { spec: { containers: [{ name: 'a', x: 1 }], metadata: { finalizers: ['a'] } } },
      { spec: { containers: [{ name: 'a', y: 2 }] } },
      { spec: { containers: [{ name: 'a', y: 2 }], metadata: { finalizers: ['a'] } } },
    ],
  ];

  it.each(cases)('%s', (_name, kind, target, patch, expected) => {
    expect(applyStrategicMergePatch(target, patch, kind)).toEqual(expected);
  });
});

describe('applyStrategicMergePatch: directives', () => {
  const cases: Array<[string, Obj, Obj, Obj]> = [
    [
      '$patch: replace on a map',
      { spec: { nodeSelector: { a: '1', b: '2' } } },
      { spec: { nodeSelector: { $patch: 'replace', c: '3' } } },
      { spec: { nodeSelector: { c: '3' } } },
    ],
    [
      '$patch: delete on a map empties it',
      { spec: { nodeSelector: { a: '1' }, x: 1 } },
      { spec: { nodeSelector: { $patch: 'delete' } } },
      { spec: { nodeSelector: {}, x: 1 } },
    ],
    [
      '$patch: merge on a map is the default',
      { spec: { nodeSelector: { a: '1' } } },
      { spec: { nodeSelector: { $patch: 'merge', b: '2' } } },
      { spec: { nodeSelector: { a: '1', b: '2' } } },
    ],
    [
      '$patch: replace at the root',
      { a: 1, b: { c: 1 } },
      { $patch: 'replace', b: { d: 2 } },
      { b: { d: 2 } },
    ],
    [
      '{"$patch":"replace"} element replaces a merge list',
      { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      { spec: { containers: [{ name: 'c', env: [{ name: 'X', value: null }] }, { $patch: 'replace' }] } },
      { spec: { containers: [{ name: 'c', env: [{ name: 'X' }] }] } },
    ],
    [
      '$setElementOrder reorders, server-only items keep their relative place',
      { spec: { containers: [{ name: 'a' }, { name: 'x' }, { name: 'b' }] } },
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } },
      { spec: { containers: [{ name: 'x' }, { name: 'b' }, { name: 'a' }] } },
    ],
    [
      '$setElementOrder with a change and an addition',
      {
        spec: {
          containers: [
            { name: 'a', image: '1' },
            { name: 'b', image: '1' },
          ],
        },
      },
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'n' }, { name: 'a' }],
          containers: [
            { name: 'b', image: '2' },
            { name: 'n', image: '1' },
          ],
        },
      },
      {
        spec: {
          containers: [
            { name: 'b', image: '2' },
            { name: 'n', image: '1' },
            { name: 'a', image: '1' },
          ],
        },
      },
    ],
    [
      '$setElementOrder on a primitive merge list',
      { metadata: { finalizers: ['a', 'b', 'c'] } },
      { metadata: { '$setElementOrder/finalizers': ['c', 'a'] } },
      { metadata: { finalizers: ['b', 'c', 'a'] } },
    ],
    [
      '$setElementOrder for a list the object does not have',
      { spec: {} },
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
          containers: [{ name: 'b' }, { $patch: 'delete', name: 'z' }, { name: 'a' }],
        },
      },
      { spec: { containers: [{ name: 'b' }, { name: 'a' }] } },
    ],
    [
      '$retainKeys clears unlisted keys (volume source switch)',
      { spec: { volumes: [{ name: 'v', emptyDir: {} }] } },
      { spec: { volumes: [{ name: 'v', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } },
      { spec: { volumes: [{ name: 'v', configMap: { name: 'cm' } }] } },
    ],
    [
      'a map patch onto a missing key drops nulls and directives',
      {},
      {
        spec: {
          a: null,
          b: { c: null, $patch: 'merge' },
          containers: [{ name: 'x' }, { $patch: 'delete', name: 'y' }],
        },
      },
      { spec: { b: {}, containers: [{ name: 'x' }] } },
    ],
    ['null for a missing key is a no-op', { a: 1 }, { b: null }, { a: 1 }],
  ];

  it.each(cases)('%s', (_name, target, patch, expected) => {
    const result = applyStrategicMergePatch(target, patch, 'Pod');
    expect(result).toEqual(expected);
    expect(noDirectives(result)).toBe(true);
  });

  it('$retainKeys on Deployment spec.strategy', () => {
    const body = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as { spec: Obj };
    expect(result.spec.strategy).toEqual({ type: 'Recreate' });
  });

  const rejects: Array<[string, Obj, string]> = [
    ['not an object', [] as unknown as Obj, 'must be a JSON object'],
    [
      'unknown $patch on a map',
      { spec: { $patch: 'explode' } },
      'unknown $patch directive "explode" at spec',
    ],
    [
      'unknown $patch in a list',
      { spec: { containers: [{ name: 'a', $patch: 'x' }] } },
      'spec.containers[0]',
    ],
    [
      'merge-list element without its key',
      { spec: { containers: [{ image: 'x' }] } },
      'missing merge key "name"',
    ],
    [
      'delete without the merge key',
      { spec: { containers: [{ $patch: 'delete' }] } },
      'missing merge key "name"',
    ],
    ['merge-list element not an object', { spec: { containers: ['a'] } }, 'must be objects'],
    ['object in a primitive merge list', { metadata: { finalizers: [{}] } }, 'cannot hold object'],
    ['$setElementOrder not a list', { spec: { '$setElementOrder/containers': 'a' } }, 'must be a list'],
    [
      '$setElementOrder without a field',
      { spec: { $setElementOrder: [] } },
      'expected "$setElementOrder/<list field>"',
    ],
    [
      '$setElementOrder item without the key',
      { spec: { '$setElementOrder/containers': [{}] } },
      'with "name"',
    ],
    [
      '$setElementOrder out of step with the patch list',
      {
        spec: {
          '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
          containers: [{ name: 'b' }, { name: 'a' }],
        },
      },
      'does not match',
    ],
    [
      '$deleteFromPrimitiveList not a list',
      { metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } },
      'must be a list',
    ],
    ['$retainKeys not a list', { spec: { $retainKeys: 'a' } }, '$retainKeys at spec must be a list'],
    ['a key not in $retainKeys', { spec: { $retainKeys: ['a'], b: 1 } }, 'field "b" at spec'],
  ];

  it.each(rejects)('rejects with 400: %s', (_name, patch, fragment) => {
    const target = { spec: { containers: [{ name: 'a' }] }, metadata: { finalizers: ['x'] } };
    const err = thrown(() => applyStrategicMergePatch(target, patch, 'Pod'));
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toContain(fragment);
  });
});

describe('applyStrategicMergePatch: purity', () => {
  it('never changes its inputs and shares no structure with them', () => {
    const target = liveDeployment();
    const patch = JSON.parse(
      '{"metadata":{"labels":null,"finalizers":["c"]},"spec":{"replicas":5,"template":{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"c"}],"containers":[{"$patch":"delete","name":"c"},{"name":"d","env":[{"name":"X","value":"1"}]}],"volumes":[{"name":"w","emptyDir":{}}]}}}}',
    );
    const [t0, p0] = [structuredClone(target), structuredClone(patch)];
    const result = applyStrategicMergePatch(target, patch, 'Deployment') as Obj;
    expect(target).toEqual(t0);
    expect(patch).toEqual(p0);
    expect(containers(result).map((c) => c.name)).toEqual(['d']);
    expect(containers(result)[0].env).not.toBe(containers(patch)[1].env);
    expect(result.status).not.toBe(target.status);
    expect(podSpec(result).tolerations).not.toBe(podSpec(target).tolerations);
  });
});

describe('merge-key table', () => {
  it.each([
    ['Deployment', 'spec.template.spec.containers', 'name'],
    ['StatefulSet', 'spec.template.spec.initContainers.env', 'name'],
    ['DaemonSet', 'spec.template.spec.containers.ports', 'containerPort'],
    ['ReplicaSet', 'spec.template.spec.ephemeralContainers.volumeMounts', 'mountPath'],
    ['Pod', 'spec.containers.volumeDevices', 'devicePath'],
    ['Pod', 'spec.volumes', 'name'],
    ['Pod', 'spec.imagePullSecrets', 'name'],
    ['Pod', 'spec.hostAliases', 'ip'],
    ['Pod', 'spec.topologySpreadConstraints', 'topologyKey'],
    ['Pod', 'spec.resourceClaims', 'name'],
    ['Pod', 'status.conditions', 'type'],
    ['Pod', 'status.podIPs', 'ip'],
    ['Deployment', 'status.conditions', 'type'],
    ['Node', 'status.addresses', 'type'],
    ['Service', 'spec.ports', 'port'],
    ['Secret', 'metadata.ownerReferences', 'uid'],
    ['Deployment', 'spec.template.metadata.ownerReferences', 'uid'],
    ['CronJob', 'spec.jobTemplate.spec.template.spec.containers', 'name'],
    ['Pod', 'spec.tolerations', undefined],
    ['Pod', 'metadata.finalizers', undefined],
    ['Deployment', 'spec.containers', undefined],
    ['Widget', 'spec.template.spec.containers', undefined],
  ])('%s %s -> %s', (kind, path, key) => {
    expect(mergeKeyFor(kind, path.split('.'))).toBe(key);
  });

  it('describes set lists and retainKeys fields', () => {
    expect(fieldStrategyFor('Pod', ['metadata', 'finalizers'])).toEqual({ merge: true });
    expect(fieldStrategyFor('Node', ['spec', 'podCIDRs'])).toEqual({ merge: true });
    expect(fieldStrategyFor('Deployment', ['spec', 'strategy'])).toEqual({ retainKeys: true });
    expect(fieldStrategyFor('Pod', ['spec', 'volumes'])?.retainKeys).toBe(true);
    expect(fieldStrategyFor('Pod', ['spec.containers'])).toBeUndefined();
    expect(isStrategicMergeKind('Lease')).toBe(true);
    expect(isStrategicMergeKind('Widget')).toBe(false);
  });
});
