import { describe, expect, it } from 'vitest';
import {
  aggregatedContentType,
  negotiateDiscovery,
  parseAccept,
} from '../../../src/server/http/media-types.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';
import { aggregatedDiscovery } from '../../../src/server/openapi/aggregated-discovery.js';
import { compareVersionPriority, groupVersionsOf } from '../../../src/server/openapi/discovery.js';
import {
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiResourceList,
  legacyApiVersions,
} from '../../../src/server/openapi/legacy-discovery.js';
import { versionInfo } from '../../../src/server/openapi/version.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { deployments, KINDS, namespaces, pods } from '../fixtures/kinds.js';

/** The exact Accept headers kubectl sends for /api and /apis (kubectl-needs §3). */
const ACCEPT_1_27_TO_1_29 =
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const ACCEPT_1_30_TO_1_33 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('negotiateDiscovery', () => {
  it('answers kubectl 1.27-1.29 with legacy discovery: v2beta1 is not served since 1.33, as kube-apiserver 1.37 answers', () => {
    expect(negotiateDiscovery(ACCEPT_1_27_TO_1_29)).toBe('legacy');
  });

  it('answers kubectl 1.30-1.33 with v2', () => {
    expect(negotiateDiscovery(ACCEPT_1_30_TO_1_33)).toEqual({
      contentType: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      version: 'v2',
      protobuf: false,
    });
  });

  it('answers plain JSON, wildcards and no Accept with legacy discovery', () => {
    expect(negotiateDiscovery('application/json, */*')).toBe('legacy');
    expect(negotiateDiscovery('application/json')).toBe('legacy');
    expect(negotiateDiscovery('*/*')).toBe('legacy');
    expect(negotiateDiscovery(undefined)).toBe('legacy');
    expect(negotiateDiscovery('')).toBe('legacy');
  });

  it('honours the order of preference and q-values', () => {
    expect(negotiateDiscovery(`application/json,${ACCEPT_1_30_TO_1_33}`)).toBe('legacy');
    expect(
      negotiateDiscovery(
        'application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      ),
    ).toMatchObject({ version: 'v2' });
    expect(
      negotiateDiscovery(
        'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.1,' +
          'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
      ),
    ).toMatchObject({ version: 'v2' });
  });

  it('serves aggregated discovery in protobuf to a client that asks for it first', () => {
    expect(
      negotiateDiscovery(
        'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      ),
    ).toEqual({
      contentType: 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
      version: 'v2',
      protobuf: true,
    });
  });

  it('skips ranges it cannot serve (yaml, unknown versions, q=0)', () => {
    expect(
      negotiateDiscovery(
        'application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
          'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,' +
          'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0,' +
          ACCEPT_1_27_TO_1_29,
      ),
    ).toBe('legacy');
    expect(negotiateDiscovery('application/yaml')).toBe('legacy');
  });

  it('parses parameters in any order, with spaces and quotes', () => {
    expect(
      negotiateDiscovery('Application/JSON; as="APIGroupDiscoveryList"; v=v2; g=apidiscovery.k8s.io'),
    ).toMatchObject({ version: 'v2' });
    expect(parseAccept('a/b;q=0.2, c/d;x=1')).toEqual([
      { type: 'c', subtype: 'd', params: { x: '1' }, q: 1 },
      { type: 'a', subtype: 'b', params: {}, q: 0.2 },
    ]);
  });
});

describe('aggregated discovery', () => {
  it('serves the core group as one unnamed item with v1 resources', () => {
    const list = aggregatedDiscovery(KINDS, 'core', 'v2');
    expect(list.kind).toBe('APIGroupDiscoveryList');
    expect(list.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(list.items).toHaveLength(1);
    expect(list.items[0]!.metadata).toEqual({});
    const [v1] = list.items[0]!.versions;
    expect(v1!.version).toBe('v1');
    expect(v1!.freshness).toBe('Current');
    expect(v1!.resources.map((r) => r.resource)).toEqual(['namespaces', 'pods']);
    expect(v1!.resources[1]).toEqual({
      resource: 'pods',
      // A built-in kind of the group-version itself: kube-apiserver leaves group and version empty.
      responseKind: { group: '', version: '', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
      subresources: [
        {
          subresource: 'binding',
          // As the reference lists it: a kind of the parent's own group-version.
          responseKind: { group: '', version: '', kind: 'Binding' },
          verbs: ['create'],
        },
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Pod' },
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
    // Cluster-scoped, and no empty categories list.
    expect(v1!.resources[0]).toMatchObject({ resource: 'namespaces', scope: 'Cluster', shortNames: ['ns'] });
    expect(v1!.resources[0]).not.toHaveProperty('categories');
  });

  it('serves /apis groups with the scale subresource as autoscaling/v1 Scale', () => {
    const list = aggregatedDiscovery(KINDS, 'groups', 'v2');
    expect(list.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['apps', 'coordination.k8s.io']);
    const deploy = list.items[0]!.versions[0]!.resources[0]!;
    expect(deploy).toMatchObject({
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(deploy.subresources).toEqual([
      {
        subresource: 'scale',
        responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
        verbs: ['get', 'patch', 'update'],
      },
      {
        subresource: 'status',
        responseKind: { group: '', version: '', kind: 'Deployment' },
        verbs: ['get', 'patch', 'update'],
      },
    ]);
    const lease = list.items[1]!.versions[0]!.resources[0]!;
    expect(lease).not.toHaveProperty('shortNames');
    expect(lease).not.toHaveProperty('subresources');
  });

  it('lists a group’s preferred version first', () => {
    const beta: ResourceKind = { ...deployments, version: 'v1beta2' };
    const list = aggregatedDiscovery([beta, ...KINDS], 'groups', 'v2');
    expect(list.items[0]!.versions.map((v) => v.version)).toEqual(['v1', 'v1beta2']);
  });

  it('is the body kubectl reads only with its Content-Type', () => {
    expect(aggregatedContentType('v2')).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
  });
});

describe('group-version ordering', () => {
  it('prefers GA over beta over alpha, higher numbers first', () => {
    expect(
      ['v1alpha1', 'v1beta1', 'v2beta1', 'v1', 'v2', 'foo', 'v1beta2'].sort(compareVersionPriority),
    ).toEqual(['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']);
  });

  it('puts core first, then groups in table order', () => {
    expect(groupVersionsOf(KINDS)).toEqual([
      { group: '', version: 'v1' },
      { group: 'apps', version: 'v1' },
      { group: 'coordination.k8s.io', version: 'v1' },
    ]);
  });
});

describe('legacy discovery', () => {
  it('/api is APIVersions', () => {
    expect(legacyApiVersions(KINDS)).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [],
    });
    expect(legacyApiVersions(KINDS, '127.0.0.1:6443').serverAddressByClientCIDRs).toEqual([
      { clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' },
    ]);
  });

  it('/apis is APIGroupList with preferred versions', () => {
    const beta: ResourceKind = { ...deployments, version: 'v1beta1' };
    expect(legacyApiGroupList([beta, ...KINDS])).toEqual({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: 'apps',
          versions: [
            { groupVersion: 'apps/v1', version: 'v1' },
            { groupVersion: 'apps/v1beta1', version: 'v1beta1' },
          ],
          preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
        },
        {
          name: 'coordination.k8s.io',
          versions: [{ groupVersion: 'coordination.k8s.io/v1', version: 'v1' }],
          preferredVersion: { groupVersion: 'coordination.k8s.io/v1', version: 'v1' },
        },
      ],
    });
  });

  it('/apis/<g> is one APIGroup; unknown groups are undefined', () => {
    expect(legacyApiGroup(KINDS, 'apps')).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps' });
    expect(legacyApiGroup(KINDS, 'batch')).toBeUndefined();
    expect(legacyApiGroup(KINDS, '')).toBeUndefined();
  });

  it('/api/v1 lists resources with kind, namespaced and status entries', () => {
    const list = legacyApiResourceList(KINDS, '', 'v1')!;
    expect(list).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'v1' });
    expect(list.resources.map((r) => r.name)).toEqual([
      'namespaces',
      'namespaces/finalize',
      'namespaces/status',
      'pods',
      'pods/binding',
      'pods/status',
    ]);
    expect(list.resources[1]).toEqual({
      name: 'namespaces/finalize',
      singularName: '',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['update'],
    });
    expect(list.resources[3]).toEqual({
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
      // sha256("/v1/Pod")[:8], as kube-apiserver 1.37 publishes it.
      storageVersionHash: 'xPOwRZ+Yhw8=',
    });
    expect(list.resources[4]).toEqual({
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    expect(list.resources[5]).toEqual({
      name: 'pods/status',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get', 'patch', 'update'],
    });
    expect(list.resources[0]).toMatchObject({ name: 'namespaces', namespaced: false, kind: 'Namespace' });
  });

  it('/apis/apps/v1 has deployments/scale as autoscaling/v1 Scale', () => {
    const list = legacyApiResourceList(KINDS, 'apps', 'v1')!;
    expect(list.groupVersion).toBe('apps/v1');
    expect(list.resources.find((r) => r.name === 'deployments/scale')).toEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    expect(legacyApiResourceList(KINDS, 'apps', 'v2')).toBeUndefined();
  });

  it('does not mutate the kind table', () => {
    const before = JSON.stringify([pods, namespaces, deployments]);
    aggregatedDiscovery(KINDS, 'core', 'v2');
    legacyApiResourceList(KINDS, 'apps', 'v1');
    expect(JSON.stringify([pods, namespaces, deployments])).toBe(before);
  });
});

describe('versionInfo', () => {
  it('reports 1.33 with major/minor for the dispatcher and gitVersion for kubectl version', () => {
    expect(versionInfo()).toMatchObject({
      major: '1',
      minor: '33',
      gitVersion: 'v1.33.1',
      gitTreeState: 'clean',
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    expect(versionInfo().gitCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(Number.isNaN(Date.parse(versionInfo().buildDate))).toBe(false);
  });
});

describe('namespaces serve no deletecollection, as their REST storage has none', () => {
  it('discovery and the legacy resource list leave the verb out', () => {
    const [v1] = aggregatedDiscovery(KINDS, 'core', 'v2').items[0]!.versions;
    expect(v1!.resources.find((r) => r.resource === 'namespaces')!.verbs).toEqual([
      'create',
      'delete',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    const legacy = legacyApiResourceList(KINDS, '', 'v1')!;
    expect(legacy.resources.find((r) => r.name === 'namespaces')!.verbs).not.toContain('deletecollection');
    expect(legacy.resources.find((r) => r.name === 'pods')!.verbs).toContain('deletecollection');
  });

  it('DELETE /api/v1/namespaces is 405 and changes nothing', async () => {
    const server = await startTestServer();
    try {
      await ensureNamespace(server, 'keep');
      const before = await server.store.currentRevision();
      const r = await call(server, 'DELETE', '/api/v1/namespaces');
      expect(r.status).toBe(405);
      expect(r.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
      expect(await server.store.currentRevision()).toBe(before);
      expect((await call(server, 'GET', '/api/v1/namespaces/keep')).body.status.phase).toBe('Active');
    } finally {
      await server.close();
    }
  });
});
