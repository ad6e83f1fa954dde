// One cluster for the whole file: fast when tests do not disturb each other
// (each works in a namespace of its own). node:test names its hooks before/after.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clusterPerFile } from '../../../src/testing/fixtures/index.js';
import { configMap } from '../shared.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, after);

const cluster = clusterPerFile({ beforeAll: before, afterAll: after });

describe('a cluster per file (node:test)', () => {
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
    assert.deepEqual((await c.client.resource('configmaps', 'doomed').list()).items, []);
  });
});
