/**
 * A built-in object's resource.Quantity is stored and answered in the text kube-apiserver's Go
 * types write back (k8s.io/apimachinery/pkg/api/resource/quantity.go `ParseQuantity`, then
 * `MarshalJSON`/`String`): `cpu: "0.5"` reads back `"500m"`. The unit tables are upstream's
 * (quantity_test.go, v1.33), ported as data; the HTTP tests run every write path, protobuf and
 * kubectl; a custom resource keeps what it was sent (it is unstructured JSON).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd, plainCrd } from '../../helpers/crds.js';
import { container, deploymentBody, msg, str } from '../../helpers/protobuf-wire.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

const NS = 'quantities';
const pods = `/api/v1/namespaces/${NS}/pods`;

function podWith(name: string, resources: unknown, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources }], ...extra },
  };
}

describe('built-in objects: canonical quantities on every write', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  it('a Pod created with 0.5, 1024Mi and 1000m reads back 500m, 1Gi and 1', async () => {
    const body = podWith(
      'web',
      { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: '1000m', memory: '1024Mi' } },
      { volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '0.5Gi' } }] },
    );
    const created = await call(s, 'POST', pods, { body });
    expect(created.status, created.text).toBe(201);
    const want = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
    expect(created.body.spec.containers[0].resources).toEqual(want);
    expect(created.body.spec.volumes[0].emptyDir).toEqual({ sizeLimit: '512Mi' });
    const got = await call(s, 'GET', `${pods}/web`);
    expect(got.body.spec.containers[0].resources).toEqual(want);
    // Defaulting copies the canonical limits into missing requests.
    const lim = await call(s, 'POST', pods, {
      body: podWith('lim', { limits: { cpu: '0.25', memory: 1e9 } }),
    });
    expect(lim.status, lim.text).toBe(201);
    expect(lim.body.spec.containers[0].resources).toEqual({
      limits: { cpu: '250m', memory: '1G' },
      requests: { cpu: '250m', memory: '1G' },
    });
  });

  it('a JSON number is answered as the canonical string', async () => {
    const r = await call(s, 'POST', pods, { body: podWith('num', { requests: { cpu: 0.5, memory: 1024 } }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.containers[0].resources.requests).toEqual({ cpu: '500m', memory: '1024' });
  });

  it('merge, JSON and strategic patches are canonical; the same amount again is no change', async () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'dep' },
      spec: {
        selector: { matchLabels: { app: 'dep' } },
        template: {
          metadata: { labels: { app: 'dep' } },
          spec: {
            containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }],
          },
        },
      },
    };
    const path = `/apis/apps/v1/namespaces/${NS}/deployments/dep`;
    const created = await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { body: d });
    expect(created.status, created.text).toBe(201);
    const requests = (r: { body: any }) => r.body.spec.template.spec.containers[0].resources.requests;

    const merge = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/merge-patch+json' },
      // A merge patch replaces the whole list.
      body: {
        spec: {
          template: {
            spec: {
              containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '0.25' } } }],
            },
          },
        },
      },
    });
    expect(merge.status, merge.text).toBe(200);
    expect(requests(merge)).toEqual({ cpu: '250m' });

    const smp = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: {
        spec: {
          template: { spec: { containers: [{ name: 'c', resources: { requests: { memory: '2048Ki' } } }] } },
        },
      },
    });
    expect(smp.status, smp.text).toBe(200);
    expect(requests(smp)).toEqual({ cpu: '250m', memory: '2Mi' });

    const json = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '1.5' },
      ],
    });
    expect(json.status, json.text).toBe(200);
    expect(requests(json)).toEqual({ cpu: '1500m', memory: '2Mi' });

    // "1.50" is the amount stored: the decoded object equals the old one, so nothing is written.
    const same = await call(s, 'PATCH', path, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '1.50' },
      ],
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(json.body.metadata.resourceVersion);
    expect(requests(same)).toEqual({ cpu: '1500m', memory: '2Mi' });
  });

  it('server-side apply stores and answers the canonical text', async () => {
    const r = await call(s, 'PATCH', `${pods}/applied?fieldManager=test`, {
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: podWith('applied', { requests: { cpu: '0.1', memory: '0.5Gi' } }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '512Mi' });
    const got = await call(s, 'GET', `${pods}/applied`);
    expect(got.body.spec.containers[0].resources.requests).toEqual({ cpu: '100m', memory: '512Mi' });
  });

  it("a Node's status capacity and allocatable are canonical on the status subresource", async () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
    const created = await call(s, 'POST', '/api/v1/nodes', { body: node });
    expect(created.status, created.text).toBe(201);
    const status = { capacity: { cpu: '4000m', pods: '1000', memory: '16Gi' }, allocatable: { cpu: '3.8' } };
    const r = await call(s, 'PUT', '/api/v1/nodes/n1/status', { body: { ...created.body, status } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.capacity).toEqual({ cpu: '4', pods: '1k', memory: '16Gi' });
    expect(r.body.status.allocatable).toEqual({ cpu: '3800m' });
  });

  it('a protobuf body is canonical too (quantity_proto.go parses the string)', async () => {
    const limits = [
      msg(1, str(1, 'cpu'), msg(2, str(1, '0.5'))),
      msg(1, str(1, 'memory'), msg(2, str(1, '1024Mi'))),
    ];
    const body = deploymentBody(1, [container('c', 'nginx', { resources: limits })]);
    const r = await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, {
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
      body,
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.template.spec.containers[0].resources.limits).toEqual({ cpu: '500m', memory: '1Gi' });
  });

  it('a custom resource keeps the text it was sent (unstructured JSON)', async () => {
    await installCrd(
      s,
      plainCrd(
        'q.example.com',
        { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        {
          cpu: { type: 'string' },
          size: { 'x-kubernetes-int-or-string': true },
          resources: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      ),
    );
    const spec = { cpu: '0.5', size: '1024Mi', resources: { requests: { cpu: '1000m' } } };
    const r = await call(s, 'POST', `/apis/q.example.com/v1/namespaces/${NS}/gadgets`, {
      body: { apiVersion: 'q.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec).toEqual(spec);
  });
});
