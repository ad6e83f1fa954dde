// A fresh cluster for every test: nothing one test does is seen by the next.

import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterPerTest } from '../../../src/testing/fixtures/index.js';
import { configMap } from '../shared.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, afterAll);

const cluster = clusterPerTest({ beforeEach, afterEach });

describe('a cluster per test (vitest)', () => {
  it('creates a ConfigMap', async () => {
    const cms = cluster.current.client.resource('configmaps', 'default');
    await cms.create(configMap('mine'));
    expect((await cms.list()).items.map((cm) => cm.metadata?.name)).toEqual(['mine']);
  });

  it('starts empty again', async () => {
    const cms = cluster.current.client.resource('configmaps', 'default');
    expect((await cms.list()).items).toEqual([]);
    await cms.create(configMap('mine')); // no 409: the first test's cluster is gone
  });
});
