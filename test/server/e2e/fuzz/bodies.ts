/** Fuzz request bodies: valid objects, patches and garbage, in every content type. */
import type { KubeObject } from '../../../../src/protocol/events.js';
import { REGISTRY } from '../../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../../src/server/kinds/types.js';

/**
 * The kinds the fuzz writes and models: every stored built-in kind. The resources answered and
 * never stored (reviews, bindings, component statuses) have no objects for the model to follow,
 * and the versions served over another resource's objects (events.k8s.io Events,
 * autoscaling/v1 HorizontalPodAutoscalers) would be the same objects under two keys of the model.
 */
export const FUZZ_KINDS: ResourceKind[] = REGISTRY.filter((k) => !k.virtual && !k.storage);

import { pod } from '../../../helpers/server.js';
import { NAMES, type Target } from './paths.js';
import { chance, int, pick } from './random.js';
export function validObject(kind: ResourceKind, name: string | undefined, namespace?: string): KubeObject {
  const meta: Record<string, unknown> = name === undefined ? { generateName: 'gen-' } : { name };
  if (chance(0.3)) meta.labels = { app: pick(['a', 'b']) };
  if (chance(0.1)) meta.finalizers = ['fuzz.example.com/hold'];
  if (chance(0.05) && namespace) meta.namespace = namespace;
  const base = {
    apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
    kind: kind.kind,
    metadata: meta,
  };
  const template = (app: string) => ({
    metadata: { labels: { app } },
    spec: { containers: [{ name: 'c', image: pick(['nginx:1.27', 'busybox']) }] },
  });
  switch (kind.kind) {
    case 'Pod':
      return { ...base, spec: pod('x').spec };
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      return {
        ...base,
        spec: { replicas: int(4), selector: { matchLabels: { app: 'f' } }, template: template('f') },
      };
    case 'StatefulSet':
      return {
        ...base,
        spec: {
          serviceName: 's',
          replicas: 1,
          selector: { matchLabels: { app: 'f' } },
          template: template('f'),
        },
      };
    case 'ConfigMap':
      return { ...base, data: { k: 'v'.repeat(int(50)) } };
    case 'Secret':
      return { ...base, stringData: { password: 'p' } };
    case 'Service':
      return { ...base, spec: { selector: { app: 'f' }, ports: [{ port: 80 + int(10) }] } };
    case 'Lease':
      return { ...base, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } };
    case 'PodTemplate':
      return { ...base, template: template('f') };
    case 'ServiceAccount':
      return { ...base, secrets: [{ name: 'token' }], automountServiceAccountToken: chance(0.5) };
    case 'Namespace':
      return { ...base, metadata: { ...meta, labels: { fuzz: 'doomed' } } };
    case 'Event':
      return {
        ...base,
        involvedObject: { kind: 'Pod', name: 'a', namespace },
        reason: 'Fuzzed',
        message: 'by the fuzz test',
        type: 'Normal',
      };
    default:
      return { ...base, spec: {} };
  }
}

export function deepNesting(depth: number): string {
  const open = chance(0.5) ? '{"a":' : '[';
  const close = open === '[' ? ']' : '}';
  return `{"metadata":{"name":"deep"},"spec":${open.repeat(depth)}1${close.repeat(depth)}}`;
}

/** A body and its content type: valid objects, patches, and every kind of junk. */
export function body(
  kind: ResourceKind | undefined,
  method: string,
  target: Target | undefined,
): [Buffer, string] {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  // Creates mostly reuse a few names (so 409s happen), sometimes generateName.
  const name = target?.name ?? (chance(0.7) ? pick(NAMES) : undefined);
  const obj = () => validObject(kind ?? pick(FUZZ_KINDS), name, target?.namespace);
  const contentType = pick([
    'application/json',
    'application/json',
    'application/merge-patch+json',
    'application/json-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
    'text/plain',
    'application/xml',
    'application/json; charset=utf-8',
    '',
    'nonsense',
  ]);
  switch (int(14)) {
    case 0:
    case 1:
    case 2: {
      // The sensible case: a valid object with the content type its method wants.
      const ct =
        method === 'PATCH'
          ? pick([
              'application/merge-patch+json',
              'application/strategic-merge-patch+json',
              'application/apply-patch+yaml',
            ])
          : 'application/json';
      return [json(obj()), ct];
    }
    case 3:
      return [
        json(
          pick([
            { metadata: { labels: { app: pick(['a', 'b', null]) } } },
            { metadata: { finalizers: null } },
            { metadata: { finalizers: ['fuzz.example.com/hold'] } },
            { spec: { replicas: int(5) } },
            { status: { phase: 'Running', replicas: int(3) } },
            { metadata: { resourceVersion: String(int(300)) } },
            { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
          ]),
        ),
        pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']),
      ];
    case 4:
      return [
        json(
          pick([
            [{ op: 'replace', path: '/spec/replicas', value: int(4) }],
            [{ op: 'remove', path: '/metadata/finalizers' }],
            [{ op: 'add', path: '/metadata/labels', value: { app: 'a' } }],
            [{ op: 'test', path: '/metadata/name', value: 'a' }],
            [{ op: 'move', from: '/spec', path: '/spec/x' }],
            [{ op: 'copy', from: '/metadata', path: '/status' }],
            [{ op: 'nope', path: '/' }],
            [{ op: 'add', path: '/metadata/labels/~2', value: 1 }],
            [{ op: 'replace', path: '', value: [] }],
            { op: 'add' },
          ]),
        ),
        'application/json-patch+json',
      ];
    case 5: {
      const text = JSON.stringify(obj());
      return [Buffer.from(text.slice(0, int(text.length))), contentType];
    }
    case 6:
      return [
        json(
          pick([
            { ...obj(), metadata: 5 },
            { ...obj(), metadata: { name: 123 } },
            { ...obj(), metadata: { name: 'a', labels: [1, 2] } },
            { ...obj(), metadata: { name: 'a', annotations: { k: 5 } } },
            { ...obj(), metadata: { name: 'a', finalizers: 'x' } },
            { ...obj(), metadata: { name: 'a', ownerReferences: [{}] } },
            { ...obj(), spec: 'x' },
            { ...obj(), spec: { containers: {} } },
            { ...obj(), spec: { replicas: '3', selector: 'app=a' } },
            { ...obj(), spec: { template: null } },
            { ...obj(), data: [1] },
            { ...obj(), kind: 7 },
            { ...obj(), apiVersion: 'v999' },
            { ...obj(), status: 'done' },
            { ...obj(), metadata: { name: 'a', generateName: 7, labels: null } },
            { ...obj(), metadata: { name: 'a', creationTimestamp: 'yesterday', deletionTimestamp: 5 } },
            null,
            7,
            'str',
            true,
          ]),
        ),
        contentType,
      ];
    case 7: {
      const size = chance(0.05) ? 3 * 1024 * 1024 + 100 : int(200_000);
      return [json({ ...obj(), metadata: { name: 'h'.repeat(size) } }), contentType];
    }
    case 8:
      // Around the server's nesting limit, where the stack would overflow, and far past it; also as YAML.
      if (chance(0.3)) {
        const d = pick([200, 300, 2000, 100_000]);
        return [
          Buffer.from(chance(0.5) ? `spec: ${'['.repeat(d)}${']'.repeat(d)}` : '- '.repeat(d) + '1'),
          pick(['application/yaml', 'application/apply-patch+yaml']),
        ];
      }
      return [Buffer.from(deepNesting(pick([100, 997, 1001, 1900, 2500, 9999, 200_000]))), contentType];
    case 9:
      return [json(pick([[], [obj()], [[[]]], [null]])), contentType];
    case 10:
      return [
        Buffer.from(
          pick([
            'a: [b\n',
            'key: value\n  bad: indent\n',
            '- 1\n- 2\n',
            '!!binary x',
            '&a [*a]',
            '{{{',
            'apiVersion: v1\nkind: Pod\nmetadata: {name: y}\nspec: {containers: [{name: c, image: i}]}\n',
            '',
            '---\n---\n',
            'a: *unknown\n',
          ]),
        ),
        pick(['application/yaml', 'application/apply-patch+yaml']),
      ];
    case 11: {
      const junk = Buffer.alloc(int(64));
      for (let i = 0; i < junk.length; i++) junk[i] = int(256);
      const magic = chance(0.8) ? Buffer.from([0x6b, 0x38, 0x73, 0x00]) : Buffer.alloc(0);
      return [Buffer.concat([magic, junk]), 'application/vnd.kubernetes.protobuf'];
    }
    case 12:
      return [Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]), contentType];
    default:
      return [
        json({
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          propagationPolicy: pick(['Orphan', 'Foreground', 'Background', 'Sideways', 5]),
          preconditions: pick([{ uid: 'nope' }, { resourceVersion: '1' }, 'x', null, {}]),
          gracePeriodSeconds: pick([0, -1, 'x']),
        }),
        contentType,
      ];
  }
}
