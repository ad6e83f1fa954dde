// vitest's test.extend: a `cluster` fixture, started for each test that asks
// for it and closed after it. Here with the example operator's CRD installed.

import { afterAll, test as base, expect } from 'vitest';
import { clusterFixture } from '../../../src/testing/fixtures/index.js';
import type { TestCluster } from '../../../src/testing/index.js';
import { reportWorker } from '../worker-report.js';

reportWorker(import.meta.url, afterAll);

const CRD = new URL('../../operator/crd.yaml', import.meta.url).pathname;

const test = base.extend<{ cluster: TestCluster }>({ cluster: clusterFixture({ crds: [CRD] }) });

test('the CRD is served, with its defaults', async ({ cluster }) => {
  const websites = cluster.client.resource('websites.demo.watchmark.dev', 'default');
  const created = await websites.create({
    apiVersion: 'demo.watchmark.dev/v1',
    kind: 'Website',
    metadata: { name: 'site' },
    spec: { host: 'site.example.com' },
  });
  expect(created.spec).toEqual({ host: 'site.example.com', image: 'nginx:1.27', replicas: 1 });
});

test('a test without the fixture starts no cluster', () => {
  expect(1 + 1).toBe(2);
});
