// A fresh cluster for every test: nothing one test does is seen by the next.

import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { clusterPerTest } from '../../../src/testing/fixtures/index.js';
import { configMap } from '../shared.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, after);

describe('a cluster per test (node:test)', () => {
  // node:test runs beforeEach/afterEach registered inside a describe for its tests.
  const cluster = clusterPerTest({ beforeEach, afterEach });

  it('creates a ConfigMap', async () => {
    const cms = cluster.current.client.resource('configmaps', 'default');
    await cms.create(configMap('mine'));
    assert.deepEqual(
      (await cms.list()).items.map((cm) => cm.metadata?.name),
      ['mine'],
    );
  });

  it('starts empty again', async () => {
    const cms = cluster.current.client.resource('configmaps', 'default');
    assert.deepEqual((await cms.list()).items, []);
    await cms.create(configMap('mine')); // no 409: the first test's cluster is gone
  });
});
