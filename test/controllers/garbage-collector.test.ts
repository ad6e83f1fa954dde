/**
 * The generic garbage collector against a real server: Background,
 * Foreground and Orphan propagation, blockOwnerDeletion, dangling owners
 * (never existed, same name with another uid, another namespace), a
 * cluster-scoped owner of namespaced dependents, and a custom kind defined
 * after the collector started. Every wait is a watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/protocol/events.js';
import { conditionTrue } from '../helpers/crds.js';
import { waitUntil } from '../helpers/wait.js';
import { widget, widgetCrd } from '../helpers/widget.js';
import {
  type ControllerCluster,
  configMap,
  recordDeletions,
  refTo,
  startControllerCluster,
  waitFor,
} from './harness.js';

let c: ControllerCluster;
let nsCount = 0;

beforeAll(async () => {
  c = await startControllerCluster();
});
afterAll(async () => {
  await c?.close();
});

async function namespace(): Promise<string> {
  const name = `gc-${++nsCount}`;
  await c.kube.resource('namespaces').create({ metadata: { name } });
  return name;
}

const cms = (ns: string) => c.kube.resource('configmaps', ns);

/**
 * Waits for a collection started now to finish: evidence that the collector
 * is past what it was told before (what it has not deleted by then, it kept).
 */
async function laterCollection(ns: string): Promise<void> {
  const marker = await cms(ns).create(configMap('marker'));
  await cms(ns).create(configMap('marked', [refTo(marker)]));
  await cms(ns).delete('marker');
  await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('marked'), 'a later collection');
}

async function dropFinalizers(ns: string, name: string): Promise<void> {
  await cms(ns).patch(name, { metadata: { finalizers: null } }, 'merge');
}

describe('garbage collector', () => {
  it('watches every deletable built-in resource, events excepted', () => {
    const resources = c.controllers.gcResources;
    expect(resources).toEqual(
      expect.arrayContaining(['v1/configmaps', 'v1/pods', 'apps/v1/deployments', 'v1/nodes']),
    );
    expect(resources).not.toContain('v1/events');
    expect(c.controllers.isSynced).toBe(true);
  });

  it('Background: deleting a ConfigMap deletes its dependents, a chain of three', async () => {
    const ns = await namespace();
    const a = await cms(ns).create(configMap('a'));
    const b = await cms(ns).create(configMap('b', [refTo(a)]));
    await cms(ns).create(configMap('c', [refTo(b)]));
    await cms(ns).create(configMap('bystander'));
    await cms(ns).delete('a');
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('b') && !m.has('c'), 'b and c to be collected');
    expect((await cms(ns).list()).items.map((o) => o.metadata?.name)).toEqual(['bystander']);
  });

  it('an object keeps living while one owner is alive, and loses the reference to the gone one', async () => {
    const ns = await namespace();
    const one = await cms(ns).create(configMap('one'));
    const two = await cms(ns).create(configMap('two'));
    await cms(ns).create(configMap('shared', [refTo(one), refTo(two)]));
    await cms(ns).delete('one');
    await waitFor(
      c.kube,
      'configmaps',
      ns,
      (m) => (m.get('shared')?.metadata?.ownerReferences ?? []).length === 1,
      'the reference to one to be removed',
    );
    const shared = await cms(ns).get('shared');
    expect(shared.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['two']);
    expect(shared.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('Orphan: the owner goes, its dependents stay with the reference removed', async () => {
    const ns = await namespace();
    const owner = await cms(ns).create(configMap('owner'));
    const other = await cms(ns).create(configMap('other'));
    await cms(ns).create(configMap('dep1', [refTo(owner, { controller: true, blockOwnerDeletion: true })]));
    await cms(ns).create(configMap('dep2', [refTo(owner), refTo(other)]));
    const marked = (await cms(ns).delete('owner', { propagationPolicy: 'Orphan' })) as KubeObject;
    expect(marked.metadata?.finalizers).toEqual(['orphan']);
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('owner'), 'the owner to go');
    const dep1 = await cms(ns).get('dep1');
    const dep2 = await cms(ns).get('dep2');
    // kube-apiserver omits the emptied list (omitempty); see the report on `ownerReferences: []`.
    expect(dep1.metadata?.ownerReferences ?? []).toEqual([]);
    expect(dep2.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['other']);
  });

  it('Foreground of a custom resource defined after the start: dependents first, then the owner', async () => {
    const ns = await namespace();
    const crds = c.kube.resource('customresourcedefinitions');
    await crds.create(widgetCrd({ group: 'gc.example.com' }));
    await waitFor(
      c.kube,
      'customresourcedefinitions',
      undefined,
      (m) => conditionTrue(m.get('widgets.gc.example.com'), 'Established'),
      'the CRD to be established',
    );
    const widgets = c.kube.resource('widgets.gc.example.com', ns);
    const w = await widgets.create(widget('w', { size: 1 }, { group: 'gc.example.com' }));
    const block = { blockOwnerDeletion: true };
    // held: a dependent that cannot go before its own finalizer is removed.
    await cms(ns).create(configMap('held', [refTo(w, block)], ['example.com/hold']));
    const mid = await cms(ns).create(configMap('mid', [refTo(w, block)]));
    await cms(ns).create(configMap('leaf', [refTo(mid, block)]));
    const deleted: string[] = [];
    const stops = [
      await recordDeletions(c.kube, 'configmaps', ns, deleted),
      await recordDeletions(c.kube, 'widgets.gc.example.com', ns, deleted),
    ];
    try {
      const marked = (await widgets.delete('w', { propagationPolicy: 'Foreground' })) as KubeObject;
      expect(marked.metadata?.finalizers).toEqual(['foregroundDeletion']);
      await waitFor(
        c.kube,
        'configmaps',
        ns,
        (m) => !m.has('mid') && !m.has('leaf') && Boolean(m.get('held')?.metadata?.deletionTimestamp),
        'mid and leaf to go and held to be deleting',
      );
      // The owner waits for the dependent that blocks it.
      const waiting = await widgets.get('w');
      expect(waiting.metadata?.deletionTimestamp).toBeDefined();
      expect(waiting.metadata?.finalizers).toEqual(['foregroundDeletion']);
      await dropFinalizers(ns, 'held');
      await waitFor(c.kube, 'widgets.gc.example.com', ns, (m) => !m.has('w'), 'the widget to go');
      await waitFor(c.kube, 'configmaps', ns, () => deleted.length === 4, 'four deletions seen');
      expect(deleted.indexOf('ConfigMap/leaf')).toBeLessThan(deleted.indexOf('ConfigMap/mid'));
      expect(deleted.at(-1)).toBe('Widget/w');
    } finally {
      for (const stop of stops) await stop();
    }
    expect(c.controllers.gcResources).toContain('gc.example.com/v1/widgets');
  });

  it('Orphan with a custom resource dependent: its reference goes by JSON merge patch (custom kinds take no strategic merge patch)', async () => {
    const ns = await namespace();
    const widgets = c.kube.resource('widgets.gc.example.com', ns);
    // A strategic merge patch of a custom resource is refused with 415, as kube-apiserver refuses it.
    const probe = await widgets.create(widget('probe', { size: 1 }, { group: 'gc.example.com' }));
    await expect(
      widgets.patch('probe', { metadata: { labels: { a: 'b' } } }, 'strategic'),
    ).rejects.toMatchObject({ code: 415 });
    await widgets.delete(probe.metadata?.name ?? '');
    const owner = await cms(ns).create(configMap('owner'));
    const other = await cms(ns).create(configMap('other'));
    await widgets.create(
      widget(
        'w',
        { size: 1 },
        {
          group: 'gc.example.com',
          metadata: { ownerReferences: [refTo(owner, { controller: true }), refTo(other)] },
        },
      ),
    );
    await cms(ns).delete('owner', { propagationPolicy: 'Orphan' });
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('owner'), 'the owner to go');
    expect((await widgets.get('w')).metadata?.ownerReferences?.map((r) => r.name)).toEqual(['other']);
  });

  it('a CustomResourceDefinition deleted takes its monitor with it', async () => {
    const crds = c.kube.resource('customresourcedefinitions');
    await crds.create(widgetCrd({ group: 'gone.example.com' }));
    // The collector's own state: a condition on it, checked as it changes.
    await waitUntil(
      () => c.controllers.gcResources.includes('gone.example.com/v1/widgets'),
      'the monitor to start',
    );
    await crds.delete('widgets.gone.example.com');
    await waitUntil(
      () => !c.controllers.gcResources.includes('gone.example.com/v1/widgets'),
      'the monitor to stop',
    );
    await c.controllers.synced();
  });

  it('Foreground: only dependents with blockOwnerDeletion hold the owner', async () => {
    const ns = await namespace();
    const owner = await cms(ns).create(configMap('owner'));
    await cms(ns).create(
      configMap('blocking', [refTo(owner, { blockOwnerDeletion: true })], ['example.com/hold']),
    );
    await cms(ns).create(
      configMap('free', [refTo(owner, { blockOwnerDeletion: false })], ['example.com/hold']),
    );
    await cms(ns).delete('owner', { propagationPolicy: 'Foreground' });
    await waitFor(
      c.kube,
      'configmaps',
      ns,
      (m) =>
        Boolean(m.get('blocking')?.metadata?.deletionTimestamp && m.get('free')?.metadata?.deletionTimestamp),
      'both dependents to be deleting',
    );
    expect((await cms(ns).get('owner')).metadata?.finalizers).toEqual(['foregroundDeletion']);
    await dropFinalizers(ns, 'blocking');
    // `free` is still there (held), yet the owner goes: it never blocked it.
    await waitFor(
      c.kube,
      'configmaps',
      ns,
      (m) => !m.has('owner') && !m.has('blocking') && m.has('free'),
      'the owner to go',
    );
    await dropFinalizers(ns, 'free');
    await waitFor(c.kube, 'configmaps', ns, (m) => m.size === 0, 'free to go');
  });

  it('Foreground: a dependent another live owner keeps loses the reference, and the owner goes', async () => {
    const ns = await namespace();
    const keeper = await cms(ns).create(configMap('keeper'));
    const leaving = await cms(ns).create(configMap('leaving'));
    await cms(ns).create(configMap('shared', [refTo(keeper), refTo(leaving, { blockOwnerDeletion: true })]));
    await cms(ns).delete('leaving', { propagationPolicy: 'Foreground' });
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('leaving'), 'the leaving owner to go');
    const shared = await cms(ns).get('shared');
    expect(shared.metadata?.ownerReferences?.map((r) => r.name)).toEqual(['keeper']);
    expect(shared.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('Foreground through an ownership cycle finishes: the dependent is unblocked, then deleted in the foreground', async () => {
    const ns = await namespace();
    const block = { blockOwnerDeletion: true };
    const a = await cms(ns).create(configMap('cycle-a'));
    const b = await cms(ns).create(configMap('cycle-b', [refTo(a, block)]));
    await cms(ns).patch('cycle-a', { metadata: { ownerReferences: [refTo(b, block)] } }, 'merge');
    await cms(ns).delete('cycle-a', { propagationPolicy: 'Foreground' });
    await waitFor(c.kube, 'configmaps', ns, (m) => m.size === 0, 'both ends of the cycle to go');
  });

  it('a namespace deleted with a foreground deletion pending inside finishes (the namespace controller waits for the collector)', async () => {
    const ns = await namespace();
    const owner = await cms(ns).create(configMap('owner', [], ['example.com/hold']));
    await cms(ns).create(configMap('dep', [refTo(owner, { blockOwnerDeletion: true })]));
    await cms(ns).delete('owner', { propagationPolicy: 'Foreground' });
    await c.kube.resource('namespaces').delete(ns);
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('dep'), 'the dependent to go');
    await dropFinalizers(ns, 'owner');
    await waitFor(c.kube, 'namespaces', undefined, (m) => !m.has(ns), 'the namespace to go');
  });

  it('a dependent whose owner never existed is deleted', async () => {
    const ns = await namespace();
    const ghost = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'ghost',
      uid: '00000000-0000-0000-0000-00000000dead',
    };
    await cms(ns).create(configMap('orphaned', [ghost]));
    await waitFor(
      c.kube,
      'configmaps',
      ns,
      (m) => !m.has('orphaned'),
      'the dependent of a missing owner to go',
    );
  });

  it('an owner of the same name but another uid is no owner: the dependent goes, the namesake stays', async () => {
    const ns = await namespace();
    const namesake = await cms(ns).create(configMap('o'));
    const stale = { ...refTo(namesake), uid: '00000000-0000-0000-0000-0000000000aa' };
    await cms(ns).create(configMap('dep', [stale]));
    await waitFor(c.kube, 'configmaps', ns, (m) => !m.has('dep'), 'the dependent to go');
    expect((await cms(ns).get('o')).metadata?.uid).toBe(namesake.metadata?.uid);
  });

  it('an owner in another namespace is absent, as upstream treats it; the dependent gets an OwnerRefInvalidNamespace event', async () => {
    const home = await namespace();
    const away = await namespace();
    const owner = await cms(home).create(configMap('owner'));
    await cms(home).create(configMap('local', [refTo(owner)]));
    const foreign = await cms(away).create(configMap('foreign', [refTo(owner)]));
    await waitFor(
      c.kube,
      'configmaps',
      away,
      (m) => !m.has('foreign'),
      'the cross-namespace dependent to go',
    );
    await waitFor(
      c.kube,
      'events',
      away,
      (m) =>
        [...m.values()].some(
          (e) =>
            e.reason === 'OwnerRefInvalidNamespace' &&
            (e.involvedObject as KubeObject['metadata'])?.uid === foreign.metadata?.uid,
        ),
      'an OwnerRefInvalidNamespace event',
    );
    expect((await cms(home).list()).items.map((o) => o.metadata?.name).sort()).toEqual(['local', 'owner']);
  });

  it('a cluster-scoped dependent of a namespaced owner is never collected, and gets an OwnerRefInvalidNamespace event', async () => {
    const ns = await namespace();
    const owner = await cms(ns).create(configMap('owner-of-a-node'));
    const nodes = c.kube.resource('nodes');
    const node = await nodes.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'gc-invalid', ownerReferences: [refTo(owner)] },
    });
    // client-go's event recorder files events about cluster-scoped objects in `default`.
    await waitFor(
      c.kube,
      'events',
      'default',
      (m) =>
        [...m.values()].some(
          (e) =>
            e.reason === 'OwnerRefInvalidNamespace' &&
            (e.involvedObject as KubeObject['metadata'])?.uid === node.metadata?.uid,
        ),
      'an OwnerRefInvalidNamespace event about the node',
    );
    await laterCollection(ns);
    expect((await nodes.get('gc-invalid')).metadata?.deletionTimestamp).toBeUndefined();
    await nodes.delete('gc-invalid');
  });

  it('a cluster-scoped owner holds namespaced dependents in any namespace, and takes them when it goes', async () => {
    const ns1 = await namespace();
    const ns2 = await namespace();
    const nodes = c.kube.resource('nodes');
    const node = await nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'gc-node' } });
    await cms(ns1).create(configMap('on-node', [refTo(node)]));
    await cms(ns2).create(configMap('on-node', [refTo(node)]));
    // Dependents of a live owner stay.
    await laterCollection(ns1);
    expect((await cms(ns1).get('on-node')).metadata?.ownerReferences?.[0]?.name).toBe('gc-node');
    await nodes.delete('gc-node');
    await waitFor(
      c.kube,
      'configmaps',
      undefined,
      (m) => ![...m.values()].some((o) => o.metadata?.name === 'on-node'),
      'both dependents to go',
    );
  });
});
