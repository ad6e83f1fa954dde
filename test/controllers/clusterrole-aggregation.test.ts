/**
 * The cluster role aggregation controller beyond the fidelity cases
 * (cases/clusterrole-aggregation.yaml): the rule order and dedup of `aggregatedRules`, and the
 * controller filling the bootstrap roles and a role of its own on a test cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGGREGATION_FIELD_MANAGER,
  aggregatedRules,
  type ClusterRole,
  sameRules,
} from '../../src/controllers/clusterrole-aggregation.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { eventually } from '../helpers/wait.js';

const role = (name: string, labels: Record<string, string>, rules: ClusterRole['rules']): ClusterRole => ({
  metadata: { name, labels },
  rules,
});

describe('aggregatedRules', () => {
  it('takes selector by selector, the roles by name, each rule once, skipping itself', () => {
    const agg: ClusterRole = {
      metadata: { name: 'agg', labels: { x: '1' } },
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { y: '1' } },
          { matchExpressions: [{ key: 'x', operator: 'Exists' }] },
        ],
      },
      rules: [{ verbs: ['own'] }],
    };
    const roles = [
      agg,
      role('b', { x: '2' }, [{ verbs: ['get'], resources: ['pods'] }, { verbs: ['list'] }]),
      role('a', { x: '3' }, [{ verbs: ['list'], resources: [] }, { verbs: ['watch'] }]),
      role('c', { y: '1' }, [{ verbs: ['watch'] }]),
      role('Z', { x: '4' }, [{ verbs: ['upper'] }]),
    ];
    expect(aggregatedRules(agg, roles)).toEqual([
      { verbs: ['watch'] },
      { verbs: ['upper'] },
      { verbs: ['list'], resources: [] },
      { verbs: ['get'], resources: ['pods'] },
    ]);
  });

  it('compares rule lists as Semantic.DeepEqual does: null, missing and empty lists alike', () => {
    expect(sameRules([], null)).toBe(true);
    expect(sameRules(undefined, [])).toBe(true);
    expect(sameRules([{ verbs: ['get'], resourceNames: [] }], [{ verbs: ['get'] }])).toBe(true);
    expect(sameRules([{ verbs: ['get'] }], [{ verbs: ['list'] }])).toBe(false);
    expect(
      sameRules([{ verbs: ['get'] }, { verbs: ['list'] }], [{ verbs: ['list'] }, { verbs: ['get'] }]),
    ).toBe(false);
  });

  it('refuses a selector that is not valid (the sync is retried)', () => {
    const agg: ClusterRole = {
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'x', operator: 'In' }] }] },
    };
    expect(() => aggregatedRules(agg, [])).toThrow();
  });
});

describe('the cluster role aggregation controller', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await testCluster({ controllers: ['namespace', 'clusterrole-aggregation'] });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  const roles = () => cluster.client.resource<ClusterRole>('clusterroles.rbac.authorization.k8s.io');

  async function until(name: string, done: (r: ClusterRole) => boolean): Promise<ClusterRole> {
    let last: ClusterRole | undefined;
    return eventually(async () => {
      last = await roles().get(name);
      return done(last) ? last : undefined;
    }, `${name}'s aggregated rules`).catch((err: Error) => {
      throw new Error(`${err.message}; its rules: ${JSON.stringify(last?.rules)}`);
    });
  }

  it('fills the bootstrap admin, edit and view roles', async () => {
    const view = await until('view', (r) => (r.rules?.length ?? 0) > 0);
    const source = await roles().get('system:aggregate-to-view');
    expect(view.rules).toEqual(source.rules);
    const admin = await until('admin', (r) => (r.rules?.length ?? 0) > 0);
    const managers = admin.metadata?.managedFields as Array<{ manager: string; operation: string }>;
    expect(managers.map((m) => [m.manager, m.operation])).toEqual([
      [AGGREGATION_FIELD_MANAGER, 'Apply'],
      ['kube-apiserver', 'Update'],
    ]);
  });

  it('follows the roles it picks, and applies no rules when none is left', async () => {
    await roles().create({
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { pick: 'me' } }] },
    });
    await roles().create(
      role('src', { pick: 'me' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
    );
    const filled = await until('agg', (r) => (r.rules?.length ?? 0) === 1);
    expect(filled.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    await roles().delete('src');
    const emptied = await until('agg', (r) => r.rules === null);
    expect(emptied.rules).toBeNull();
  });
});
