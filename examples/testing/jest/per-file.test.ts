// One cluster for the whole file: fast when tests do not disturb each other
// (each works in a namespace of its own).

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clusterPerFile } from '../../../src/testing/fixtures/index.js';
import { configMap } from '../shared.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, afterAll);

const cluster = clusterPerFile({ beforeAll, afterAll });

describe('a cluster per file (jest)', () => {
  it('garbage-collects a ConfigMap whose owner is deleted', async () => {
    const c = cluster.current;
    const client = c.client;
    await client.resource('namespaces').create({ metadata: { name: 'gc' } });
    const owner = await client.resource('configmaps', 'gc').create(configMap('owner'));
    await client.resource('configmaps', 'gc').create(configMap('dependent', owner));
    await client.resource('configmaps', 'gc').delete('owner');
    await c.waitForDeletion('configmaps', 'dependent', { namespace: 'gc' });
    await expect(c.waitFor('configmaps', 'owner', { namespace: 'gc', timeout: 1 })).rejects.toThrow();
  });

  it('deletes what a deleted namespace holds, then the namespace', async () => {
    const c = cluster.current;
    const client = c.client;
    await client.resource('namespaces').create({ metadata: { name: 'doomed' } });
    await client.resource('configmaps', 'doomed').create(configMap('inside'));
    await client.resource('namespaces').delete('doomed');
    await c.waitForDeletion('namespaces', 'doomed');
    expect((await client.resource('configmaps', 'doomed').list()).items).toEqual([]);
  });
});
