/**
 * kubectl 1.33's exec, attach, port-forward, logs, debug, patch --subresource resize and
 * `get --raw` of a proxy, run against the reference kube-apiserver and against watchmark with
 * the same objects and no kubelet: each command prints the same and exits the same. kubectl
 * 1.33 speaks the v5 WebSocket for exec and attach (falling back to SPDY) and tunnels
 * port-forward over a WebSocket, so this is what a user sees of pod-connect.ts,
 * connect-upgrade.ts and proxy.ts.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findReferenceBinaries,
  type ReferenceServer,
  startReferenceServer,
} from '../../src/process/index.js';
import { type TestCluster, testCluster } from '../../src/testing/index.js';
import { findKubectls, requireTool } from '../helpers/tools.js';

const kubectl = (await findKubectls()).find((k) => k.name === 'kubectl.1.33');
const binaries = findReferenceBinaries();
const ready =
  requireTool('kubectl.1.33', kubectl !== undefined) && requireTool('the reference build', !!binaries);

/** The objects both servers get: a pod no node runs, pods on a Node without address and on one whose kubelet port refuses. */
const OBJECTS = `
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Namespace, metadata: {name: kc}}
- {apiVersion: v1, kind: Node, metadata: {name: kc-bare}}
- {apiVersion: v1, kind: Node, metadata: {name: kc-node}}
- apiVersion: v1
  kind: Pod
  metadata: {name: idle, namespace: kc}
  spec: {containers: [{name: c, image: nginx}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: bare, namespace: kc}
  spec: {nodeName: kc-bare, containers: [{name: c, image: nginx}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: kc}
  spec: {nodeName: kc-node, containers: [{name: c, image: nginx}, {name: d, image: nginx}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: sized, namespace: kc}
  spec: {containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]}
- apiVersion: v1
  kind: Service
  metadata: {name: svc, namespace: kc}
  spec: {selector: {app: web}, ports: [{name: http, port: 80}]}
`;

/** A resize of container c's cpu request (kubectl patch --subresource resize). */
const RESIZE = '{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"200m"}}}]}}';

const COMMANDS: string[][] = [
  ['-n', 'kc', 'exec', 'idle', '--', 'ls'],
  ['-n', 'kc', 'exec', 'missing', '--', 'ls'],
  ['-n', 'kc', 'exec', 'bare', '--', 'ls'],
  ['-n', 'kc', 'exec', 'web', '--', 'ls'],
  ['-n', 'kc', 'exec', 'web', '-c', 'zz', '--', 'ls'],
  ['-n', 'kc', 'exec', 'web', '-c', 'd', '--', 'sh', '-c', 'echo hi'],
  ['-n', 'kc', 'attach', 'web', '-c', 'c'],
  ['-n', 'kc', 'attach', 'idle'],
  ['-n', 'kc', 'port-forward', 'pod/idle', '18089:80'],
  ['-n', 'kc', 'port-forward', 'pod/web', '18089:80'],
  ['-n', 'kc', 'port-forward', 'pod/bare', '18089:80'],
  ['-n', 'kc', 'logs', 'web', '-c', 'c'],
  ['-n', 'kc', 'logs', 'web', '-c', 'd', '--tail', '3', '--timestamps'],
  ['-n', 'kc', 'logs', 'bare'],
  ['-n', 'kc', 'logs', 'idle'],
  ['get', '--raw', '/api/v1/namespaces/kc/services/svc:http/proxy/'],
  ['get', '--raw', '/api/v1/namespaces/kc/pods/idle/proxy/'],
  ['get', '--raw', '/api/v1/nodes/kc-node/proxy/metrics'],
  // kubectl debug adds an ephemeral container through pods/ephemeralcontainers.
  ['-n', 'kc', 'debug', 'idle', '--image=busybox', '--target=c', '-c', 'dbg'],
  ['-n', 'kc', 'debug', 'idle', '--image=busybox', '-c', 'dbg'],
  [
    '-n',
    'kc',
    'get',
    'pod',
    'idle',
    '-o',
    'jsonpath={.spec.ephemeralContainers[*].name} {.metadata.generation}',
  ],
  // kubectl 1.33's patch --subresource resize: refused where the QoS class would change.
  ['-n', 'kc', 'patch', 'pod', 'idle', '--subresource', 'resize', '-p', RESIZE],
  ['-n', 'kc', 'patch', 'pod', 'sized', '--subresource', 'resize', '-p', RESIZE],
  [
    '-n',
    'kc',
    'get',
    'pod',
    'sized',
    '-o',
    'jsonpath={.spec.containers[0].resources} {.metadata.generation}',
  ],
];

function run(kubeconfig: string, args: string[], stdin?: string): Promise<string> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectl!.path,
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 'killed') : 0;
        resolve(`${stdout}${stderr}[exit ${code}]`);
      },
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

let ref: ReferenceServer;
let wm: TestCluster;
beforeAll(async () => {
  if (!ready) return;
  [ref, wm] = await Promise.all([
    startReferenceServer({ profile: 'envtest', binaries: binaries!, log: null }),
    testCluster({ tls: true, controllers: [], server: { disableAdmissionPlugins: ['ServiceAccount'] } }),
  ]);
  for (const kubeconfig of [ref.kubeconfigPath, wm.kubeconfigPath]) {
    expect(await run(kubeconfig, ['create', '-f', '-'], OBJECTS)).toContain('[exit 0]');
    const status = JSON.stringify({
      status: {
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 1 } },
      },
    });
    expect(
      await run(kubeconfig, [
        'patch',
        'node',
        'kc-node',
        '--subresource=status',
        '--type=merge',
        '-p',
        status,
      ]),
    ).toContain('[exit 0]');
    for (const pod of ['web', 'bare']) {
      const running = '{"status":{"phase":"Running"}}';
      expect(
        await run(kubeconfig, [
          '-n',
          'kc',
          'patch',
          'pod',
          pod,
          '--subresource=status',
          '--type=merge',
          '-p',
          running,
        ]),
      ).toContain('[exit 0]');
    }
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([ref?.close(), wm?.close()]);
});

describe.skipIf(!ready)('kubectl 1.33 connect commands print what they print against kube-apiserver', () => {
  it.each(COMMANDS.map((c) => [c.join(' '), c] as const))(
    'kubectl %s',
    async (_, args) => {
      // One after the other: port-forward binds the same local port on both runs.
      const reference = await run(ref.kubeconfigPath, args);
      const watchmark = await run(wm.kubeconfigPath, args);
      expect(watchmark).toBe(reference);
    },
    90_000,
  );
});
