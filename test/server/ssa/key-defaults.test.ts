/**
 * Key defaults end to end, through the library (src/server/ssa/index.ts) and the built-in
 * Deployment schema: structured-merge-diff keys a list item that omits a key field by the
 * field's schema default (typed/helpers.go `getAssociativeKeyDefault`), so a container port
 * applied without `protocol` is the live `protocol: TCP` port (ContainerPort.protocol
 * {default: "TCP"} in Kubernetes 1.30's api/v1.json), not a second port.
 */
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { mergeNodeOfKind } from '../../../src/server/ssa/builtin-schema.js';
import { applyConfiguration, recordUpdate } from '../../../src/server/ssa/index.js';
import type { ListNode, MapNode, MergeNode } from '../../../src/server/ssa/merge-schema.js';

const T1 = new Date('2026-01-01T10:00:00Z');
const T2 = new Date('2026-01-01T10:00:01Z');
const DEPLOYMENT = mergeNodeOfKind(REGISTRY.find((k) => k.kind === 'Deployment')!);
const write = { apiVersion: 'apps/v1', kind: 'Deployment' };
const TCP_80 = 'k:{"containerPort":80,"protocol":"TCP"}';

function deployment(port: Record<string, unknown>): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [port] }] },
      },
    },
  };
}

/** The live Deployment, written by an Update of manager `creator` with the port's protocol set. */
function live(node: MergeNode): Record<string, any> {
  const object = deployment({ containerPort: 80, protocol: 'TCP' });
  object.metadata.uid = '6f1c3a52-0000-4000-8000-000000000001';
  const created = recordUpdate({
    node,
    ...write,
    live: undefined,
    next: object,
    manager: 'creator',
    now: T1,
  });
  return created.object;
}

const ports = (o: any) => o.spec.template.spec.containers[0].ports;
const entry = (entries: any[] | undefined, manager: string) => entries?.find((e) => e.manager === manager);
const portFields = (e: any) =>
  e?.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']['f:ports'];

describe('applying a port without protocol onto the live TCP port', () => {
  it('keeps one port, the applier owning the TCP item and its containerPort', () => {
    const result = applyConfiguration({
      node: DEPLOYMENT,
      ...write,
      live: live(DEPLOYMENT),
      config: deployment({ containerPort: 80 }),
      manager: 'applier',
      force: false,
      now: T2,
    });
    expect(ports(result.object)).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    const applier = entry(result.managedFields, 'applier');
    expect(applier).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1' });
    expect(portFields(applier)).toEqual({ [TCP_80]: { '.': {}, 'f:containerPort': {} } });
    // The creator (an Update, which owns the list itself too) keeps the protocol it set.
    expect(portFields(entry(result.managedFields, 'creator'))).toEqual({
      '.': {},
      [TCP_80]: { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
    });
  });

  it('would add a second port if the schema gave the key no default (the bug this fixes)', () => {
    const noDefaults = withoutPortKeyDefaults(DEPLOYMENT);
    const result = applyConfiguration({
      node: noDefaults,
      ...write,
      live: live(noDefaults),
      config: deployment({ containerPort: 80 }),
      manager: 'applier',
      force: false,
      now: T2,
    });
    expect(ports(result.object)).toHaveLength(2);
  });
});

/** The Deployment schema with the container ports list stripped of its key defaults. */
function withoutPortKeyDefaults(root: MergeNode): MergeNode {
  const replace = (node: MergeNode, path: string[], leaf: (n: MergeNode) => MergeNode): MergeNode => {
    if (path.length === 0) return leaf(node);
    const [step, ...rest] = path as [string, ...string[]];
    if (step === '[]') {
      const l = node as ListNode;
      return { ...l, items: replace(l.items, rest, leaf) };
    }
    const m = node as MapNode;
    const child = replace(m.field(step)!, rest, leaf);
    return {
      kind: 'map',
      relationship: m.relationship,
      values: m.values,
      field: (name) => (name === step ? child : m.field(name)),
    };
  };
  const path = ['spec', 'template', 'spec', 'containers', '[]', 'ports'];
  return replace(root, path, (n) => ({ ...(n as ListNode), keyDefaults: undefined }));
}
