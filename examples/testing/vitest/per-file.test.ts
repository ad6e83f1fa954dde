// One cluster for the whole file: fast when tests do not disturb each other
// (each works in a namespace of its own).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterPerFile } from '../../../src/testing/fixtures/index.js';
import { configMap } from '../shared.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, afterAll);

const cluster = clusterPerFile({ beforeAll, afterAll });

describe('a cluster per file (vitest)', () => {
  it('garbage-collects a ConfigMap whose owner is deleted', async () => {
    const c = cluster.current;
    await c.client.resource('namespaces').create({ metadata: { name: 'gc' } });
    const owner = await c.client.resource('configmaps', 'gc').create(configMap('owner'));
    await c.client.resource('configmaps', 'gc').create(configMap('dependent', owner));
    await c.client.resource('configmaps', 'gc').delete('owner');
    await c.waitForDeletion('configmaps', 'dependent', { namespace: 'gc' });
  });

  it('deletes what a deleted namespace holds, then the namespace', async () => {
    const c = cluster.current;
    await c.client.resource('namespaces').create({ metadata: { name: 'doomed' } });
    await c.client.resource('configmaps', 'doomed').create(configMap('inside'));
    await c.client.resource('namespaces').delete('doomed');
    await c.waitForDeletion('namespaces', 'doomed');
    expect((await c.client.resource('configmaps', 'doomed').list()).items).toEqual([]);
  });
});
