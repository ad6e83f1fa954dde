/**
 * The graph builder alone, fed events by hand (no server): virtual owners,
 * a virtual delete when dependents disagree on the owner's coordinates
 * (graph_builder.go's alternate identities), owners released when a
 * blocking reference goes, and the transitions into Orphan and Foreground.
 */
import { describe, expect, it } from 'vitest';
import { GraphBuilder } from '../../src/controllers/graph-builder.js';
import { ManualClock } from '../../src/protocol/clock.js';
import type { KubeObject, OwnerReference } from '../../src/protocol/events.js';
import { WorkQueue } from '../../src/protocol/workqueue.js';

function setup() {
  const clock = new ManualClock();
  const attemptToDelete = new WorkQueue(clock);
  const attemptToOrphan = new WorkQueue(clock);
  const invalid: string[] = [];
  const graph = new GraphBuilder({
    attemptToDelete,
    attemptToOrphan,
    onInvalidNamespaceOwnerRef: (dep, ref) => invalid.push(`${dep.identity.name}->${ref.name}`),
  });
  /** Every key ready in `q`, in order (taken off it). */
  const drain = async (q: WorkQueue) => {
    const out: string[] = [];
    while (q.length > 0) {
      const key = (await q.get()) as string;
      out.push(key);
      q.done(key);
    }
    return out;
  };
  return { clock, graph, attemptToDelete, attemptToOrphan, invalid, drain };
}

function cm(
  name: string,
  uid: string,
  namespace = 'ns',
  owners: OwnerReference[] = [],
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject {
  return { metadata: { name, uid, namespace, ownerReferences: owners, ...extra } };
}

const ref = (
  name: string,
  uid: string,
  kind = 'ConfigMap',
  extra: Partial<OwnerReference> = {},
): OwnerReference => ({
  apiVersion: 'v1',
  kind,
  name,
  uid,
  ...extra,
});

const add = (obj: KubeObject) => ({ type: 'add' as const, obj, apiVersion: 'v1', kind: 'ConfigMap' });

describe('GraphBuilder', () => {
  it('an owner only referred to gets a virtual node, queued to be looked up, and becomes real when observed', async () => {
    const { graph, attemptToDelete, drain } = setup();
    graph.process(add(cm('dep', 'd1', 'ns', [ref('owner', 'o1')])));
    const owner = graph.nodes.get('o1');
    expect(owner?.virtual).toBe(true);
    expect(owner?.identity).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: 'o1',
      namespace: 'ns',
    });
    expect(await drain(attemptToDelete)).toEqual(['o1']);
    graph.process(add(cm('owner', 'o1')));
    expect(owner?.virtual).toBe(false);
    expect([...(owner?.dependents ?? [])].map((d) => d.identity.name)).toEqual(['dep']);
    expect(await drain(attemptToDelete)).toEqual([]);
  });

  it('a virtual delete of one identity keeps the node under another its dependents give it, and queues the dependents that matched', async () => {
    const { clock, graph, attemptToDelete, drain } = setup();
    graph.process(add(cm('a', 'd1', 'ns', [ref('owner', 'o1', 'ConfigMap')])));
    graph.process(add(cm('b', 'd2', 'ns', [ref('owner', 'o1', 'Secret')])));
    await drain(attemptToDelete);
    graph.virtualDelete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'o1', namespace: 'ns' });
    const node = graph.nodes.get('o1');
    expect(node?.identity.kind).toBe('Secret');
    expect(
      graph.absentOwners.has({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'owner',
        uid: 'o1',
        namespace: 'ns',
      }),
    ).toBe(true);
    // The dependent naming the absent identity is looked at now; the node again after a delay.
    expect(await drain(attemptToDelete)).toEqual(['d1']);
    clock.advance(5);
    expect(await drain(attemptToDelete)).toEqual(['o1']);
  });

  it('a virtual delete all dependents agree with removes the node and queues them', async () => {
    const { graph, attemptToDelete, drain } = setup();
    graph.process(add(cm('a', 'd1', 'ns', [ref('owner', 'o1')])));
    graph.process(add(cm('b', 'd2', 'ns', [ref('owner', 'o1')])));
    await drain(attemptToDelete);
    graph.virtualDelete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'o1', namespace: 'ns' });
    expect(graph.nodes.has('o1')).toBe(false);
    expect((await drain(attemptToDelete)).sort()).toEqual(['d1', 'd2']);
  });

  it('a dependent naming an observed namespaced owner from another namespace is reported and queued', async () => {
    const { graph, attemptToDelete, invalid, drain } = setup();
    graph.process(add(cm('owner', 'o1', 'home')));
    graph.process(add(cm('dep', 'd1', 'away', [ref('owner', 'o1')])));
    expect(invalid).toEqual(['dep->owner']);
    expect(await drain(attemptToDelete)).toEqual(['d1']);
  });

  it('a blocking reference removed, or unblocked, queues its owner', async () => {
    const { graph, attemptToDelete, drain } = setup();
    graph.process(add(cm('owner', 'o1')));
    const blocking = cm('dep', 'd1', 'ns', [ref('owner', 'o1', 'ConfigMap', { blockOwnerDeletion: true })]);
    graph.process(add(blocking));
    await drain(attemptToDelete);
    const unblocked = cm('dep', 'd1', 'ns', [ref('owner', 'o1', 'ConfigMap', { blockOwnerDeletion: false })]);
    graph.process({ type: 'update', obj: unblocked, old: blocking, apiVersion: 'v1', kind: 'ConfigMap' });
    expect(await drain(attemptToDelete)).toEqual(['o1']);
    graph.process({
      type: 'update',
      obj: cm('dep', 'd1'),
      old: unblocked,
      apiVersion: 'v1',
      kind: 'ConfigMap',
    });
    // Not blocking any more: its removal releases nothing.
    expect(await drain(attemptToDelete)).toEqual([]);
    expect(graph.nodes.get('o1')?.dependents.size).toBe(0);
  });

  it('deletion starting with orphan queues the owner to orphan; with foregroundDeletion, it and its dependents to delete', async () => {
    const { graph, attemptToDelete, attemptToOrphan, drain } = setup();
    const owner = cm('owner', 'o1');
    graph.process(add(owner));
    graph.process(add(cm('dep', 'd1', 'ns', [ref('owner', 'o1')])));
    await drain(attemptToDelete);
    const deleting = (finalizer: string) =>
      cm('owner', 'o1', 'ns', [], { deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [finalizer] });
    graph.process({
      type: 'update',
      obj: deleting('orphan'),
      old: owner,
      apiVersion: 'v1',
      kind: 'ConfigMap',
    });
    expect(await drain(attemptToOrphan)).toEqual(['o1']);
    const fresh = cm('owner2', 'o2');
    graph.process(add(fresh));
    graph.process(add(cm('dep2', 'd2', 'ns', [ref('owner2', 'o2')])));
    await drain(attemptToDelete);
    const fg = {
      ...deleting('foregroundDeletion'),
      metadata: { ...deleting('foregroundDeletion').metadata, name: 'owner2', uid: 'o2' },
    };
    graph.process({ type: 'update', obj: fg, old: fresh, apiVersion: 'v1', kind: 'ConfigMap' });
    expect(graph.nodes.get('o2')?.deletingDependents).toBe(true);
    expect(await drain(attemptToDelete)).toEqual(['d2', 'o2']);
    // The same state again is no new transition.
    graph.process({ type: 'update', obj: fg, old: fg, apiVersion: 'v1', kind: 'ConfigMap' });
    expect(await drain(attemptToDelete)).toEqual([]);
  });
});
