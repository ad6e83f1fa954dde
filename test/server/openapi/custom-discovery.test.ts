/**
 * Discovery of custom resources, legacy and aggregated, from a KindTable holding hand-made
 * custom kinds: what apiextensions-apiserver's discovery controller publishes
 * (customresource_discovery_controller.go `sync`).
 */
import { describe, expect, it } from 'vitest';
import { KindTable } from '../../../src/server/kinds/served/kind-table.js';
import { aggregatedDiscovery } from '../../../src/server/openapi/aggregated-discovery.js';
import { storageVersionHash } from '../../../src/server/openapi/custom-discovery.js';
import { groupVersionsOf } from '../../../src/server/openapi/discovery.js';
import {
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiResourceList,
} from '../../../src/server/openapi/legacy-discovery.js';
import { gadgetKind, widgetKind } from './custom-kinds.js';

function table(): KindTable {
  const kinds = new KindTable();
  const served = ['v1alpha1', 'v1', 'v2beta1', 'v1beta2', 'v10'];
  // Added in an order that is not the priority order.
  for (const v of served) kinds.add(widgetKind(v, { servedVersions: served, storageVersion: 'v1' }));
  kinds.add(gadgetKind());
  return kinds;
}

describe('storageVersionHash', () => {
  it('is StorageVersionHash: 8 bytes of SHA-256 of group/version/kind, base64', () => {
    // The hashes kube-apiserver publishes for deployments and pods.
    expect(storageVersionHash('apps', 'v1', 'Deployment')).toBe('8aSe+NMegvE=');
    expect(storageVersionHash('', 'v1', 'Pod')).toBe('xPOwRZ+Yhw8=');
  });
});

describe('legacy discovery of custom resources', () => {
  const kinds = table().all();

  it('orders a group versions by kube-aware priority; the preferred version is the first', () => {
    const group = legacyApiGroup(kinds, 'example.com')!;
    expect(group.versions.map((v) => v.version)).toEqual(['v10', 'v1', 'v2beta1', 'v1beta2', 'v1alpha1']);
    expect(group.preferredVersion).toEqual({ groupVersion: 'example.com/v10', version: 'v10' });
    expect(group).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'example.com' });
  });

  it('lists custom groups after the built-in ones, by name (group priority 1000)', () => {
    const names = legacyApiGroupList(kinds).groups.map((g) => g.name);
    expect(names.slice(-2)).toEqual(['example.com', 'tools.example.org']);
    expect(names.indexOf('apps')).toBeLessThan(names.indexOf('example.com'));
    const reversed = new KindTable();
    reversed.add(gadgetKind());
    reversed.add(widgetKind('v1'));
    expect(groupVersionsOf(reversed.all()).slice(-2)).toEqual([
      { group: 'example.com', version: 'v1' },
      { group: 'tools.example.org', version: 'v1beta1' },
    ]);
  });

  it('lists the resource, its status and its scale as the discovery controller does', () => {
    const list = legacyApiResourceList(kinds, 'example.com', 'v1beta2')!;
    expect(list).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'example.com/v1beta2',
      resources: [
        {
          name: 'widgets',
          singularName: 'widget',
          namespaced: true,
          kind: 'Widget',
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          shortNames: ['wd'],
          categories: ['all', 'toys'],
          // The storage version's hash, in every served version.
          storageVersionHash: storageVersionHash('example.com', 'v1', 'Widget'),
        },
        {
          name: 'widgets/status',
          singularName: '',
          namespaced: true,
          kind: 'Widget',
          verbs: ['get', 'patch', 'update'],
        },
        {
          name: 'widgets/scale',
          singularName: '',
          namespaced: true,
          group: 'autoscaling',
          version: 'v1',
          kind: 'Scale',
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
  });

  it('lists only delete, deletecollection, get, list and watch while the definition terminates', () => {
    const kinds = new KindTable();
    const widget = widgetKind('v1');
    widget.custom!.state.terminating = true;
    kinds.add(widget);
    expect(legacyApiResourceList(kinds.all(), 'example.com', 'v1')!.resources[0]!.verbs).toEqual([
      'delete',
      'deletecollection',
      'get',
      'list',
      'watch',
    ]);
  });

  it('answers 404 (undefined) for a group-version no definition serves', () => {
    expect(legacyApiResourceList(kinds, 'example.com', 'v3')).toBeUndefined();
    expect(legacyApiGroup(kinds, 'nothing.example.com')).toBeUndefined();
  });
});

describe('aggregated discovery of custom resources', () => {
  const kinds = table().all();
  const doc = aggregatedDiscovery(kinds, 'groups', 'v2');

  it('has each custom group with its versions in priority order, resources sorted', () => {
    const widgets = doc.items.find((i) => i.metadata.name === 'example.com')!;
    expect(widgets.versions.map((v) => v.version)).toEqual(['v10', 'v1', 'v2beta1', 'v1beta2', 'v1alpha1']);
    expect(doc.items.slice(-2).map((i) => i.metadata.name)).toEqual(['example.com', 'tools.example.org']);
    expect(widgets.versions[0]!.resources).toEqual([
      {
        resource: 'widgets',
        responseKind: { group: 'example.com', version: 'v10', kind: 'Widget' },
        scope: 'Namespaced',
        singularResource: 'widget',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        shortNames: ['wd'],
        categories: ['all', 'toys'],
        subresources: [
          {
            subresource: 'status',
            responseKind: { group: 'example.com', version: 'v10', kind: 'Widget' },
            verbs: ['get', 'patch', 'update'],
          },
          {
            subresource: 'scale',
            responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
            verbs: ['get', 'patch', 'update'],
          },
        ],
      },
    ]);
    expect(widgets.versions.every((v) => v.freshness === 'Current')).toBe(true);
  });

  it('lists a cluster-scoped kind without subresources as such', () => {
    const gadgets = doc.items.find((i) => i.metadata.name === 'tools.example.org')!;
    expect(gadgets.versions[0]!.resources[0]).toEqual({
      resource: 'gadgets',
      responseKind: { group: 'tools.example.org', version: 'v1beta1', kind: 'Gadget' },
      scope: 'Cluster',
      singularResource: 'gadget',
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    });
  });

  it('leaves the built-in groups as they were, first', () => {
    const builtins = aggregatedDiscovery(new KindTable().all(), 'groups', 'v2');
    expect(doc.items.slice(0, builtins.items.length)).toEqual(builtins.items);
    expect(aggregatedDiscovery(kinds, 'core', 'v2')).toEqual(
      aggregatedDiscovery(new KindTable().all(), 'core', 'v2'),
    );
  });
});
