/**
 * The simulated components write under the names real ones have in
 * managedFields: kube-controller-manager (deployment and ReplicaSet
 * controllers, garbage collector), kube-scheduler (bindings, PodScheduled),
 * kubelet (nodes, leases, pod status). They send no fieldManager, as the
 * real ones send none; kube-apiserver takes the manager from the User-Agent
 * before its first `/`. A forwarding proxy between the sim and a real
 * server records every write's User-Agent and query.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/client/client.js';
import type { RunningServer } from '../../src/server/index.js';
import { type Simulation, startSimulation } from '../../src/sim/index.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { startTestServer } from '../helpers/server.js';
import { deployment, FAST, rolledOut } from './harness.js';

interface Write {
  method: string;
  path: string;
  query: Record<string, string>;
  manager: string;
}

const tempDir = tempDirForFile('watchmark-sim-managers-');
let server: RunningServer;
let proxy: Server;
let sim: Simulation;
let kube: KubeClient;
const writes: Write[] = [];

/** Forwards every request to `target`, recording the writes. */
function forwardingProxy(target: string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (req.method !== 'GET') {
      writes.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        manager: (req.headers['user-agent'] ?? '').split('/')[0],
      });
    }
    const upstream = request(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  server = await startTestServer();
  proxy = forwardingProxy(server.url);
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  const kubeconfig = join(tempDir(), 'kubeconfig');
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  await writeFile(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters: [{name: sim, cluster: {server: "${url}"}}]
users: [{name: nobody, user: {}}]
contexts: [{name: sim, context: {cluster: sim, user: nobody, namespace: default}}]
current-context: sim
`,
  );
  sim = await startSimulation({ kubeconfig, nodes: 2, timing: FAST });
  kube = await KubeClient.load({ kubeconfig, qps: 0, userAgent: 'test/0' });
  await kube.resource('deployments').create(deployment('web', 3));
  await rolledOut(kube, 'default', 'web');
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await kube?.close();
  proxy?.closeAllConnections();
  proxy?.close();
  await server?.close();
});

/** The managers that wrote `method` on paths matching `path`. */
function managers(method: string, path: RegExp): string[] {
  return [...new Set(writes.filter((w) => w.method === method && path.test(w.path)).map((w) => w.manager))];
}

describe('field managers of the simulated cluster', () => {
  it('no component sends a fieldManager: the server names each after its User-Agent', () => {
    const sim = writes.filter((w) => w.manager !== 'test');
    expect(sim.length).toBeGreaterThan(10);
    expect(sim.filter((w) => 'fieldManager' in w.query)).toEqual([]);
  });

  it('kube-controller-manager creates ReplicaSets and pods and writes Deployment status', () => {
    expect(managers('POST', /\/replicasets$/)).toEqual(['kube-controller-manager']);
    expect(managers('POST', /\/namespaces\/default\/pods$/)).toEqual(['kube-controller-manager']);
    expect(managers('PUT', /\/deployments\/web\/status$/)).toEqual(['kube-controller-manager']);
  });

  it('kube-scheduler binds by POST pods/binding, which the server serves: no spec.nodeName patch', () => {
    expect(managers('POST', /\/pods\/[^/]+\/binding$/)).toEqual(['kube-scheduler']);
    const patches = writes.filter((w) => w.method === 'PATCH' && /\/pods\/[^/]+$/.test(w.path));
    expect(patches).toEqual([]);
  });

  it('kubelet registers nodes, renews leases and writes pod status', () => {
    expect(managers('POST', /\/nodes$/)).toEqual(['kubelet']);
    expect(managers('POST', /\/leases$/)).toEqual(['kubelet']);
    const statusWriters = [
      ...managers('PATCH', /\/pods\/[^/]+\/status$/),
      ...managers('PUT', /\/pods\/[^/]+\/status$/),
    ];
    expect(new Set(statusWriters)).toEqual(new Set(['kubelet']));
  });

  it("a pod's managedFields name kube-controller-manager and kubelet, as a real cluster's", async () => {
    const pods = await kube.resource('pods').list({ labelSelector: 'app=web' });
    const entries = (pods.items[0]?.metadata?.managedFields ?? []) as Array<Record<string, unknown>>;
    const shape = entries.map((e) => `${e.manager} ${e.operation} ${e.subresource ?? ''}`.trim()).sort();
    // A binding writes past the field manager (BindingREST): no kube-scheduler entry, as on a real cluster.
    expect(shape).toEqual(['kube-controller-manager Update', 'kubelet Update status']);
  });
});
