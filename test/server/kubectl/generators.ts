/**
 * The `kubectl create deployment` and `kubectl create service` generators: kubectl 1.27-1.31 send
 * their objects as JSON, 1.32+ as protobuf (with no JSON fallback). Each kubectl checks that what
 * the server stored holds every field the user set; the suite then checks that every kubectl
 * stored exactly what kubectl 1.31 (JSON) stored, so the protobuf decoding loses nothing.
 */
import { expect } from 'vitest';
import { expectOk, expectOkVerbose, jsonOf } from './expect.js';
import type { ScenarioContext } from './scenario.js';

/** The created objects as stored, by `kind/name`, without what differs between runs. */
export type GeneratedObjects = Record<string, unknown>;

/**
 * What each create sets: the `kubectl create ... --dry-run=client -o json` output of kubectl 1.31
 * (the JSON it sends), without kind, apiVersion and the top-level `creationTimestamp: null`.
 */
function userSet(nodePort: number): Record<string, object> {
  return {
    'Deployment/gen-web': deployment('gen-web', 2, [
      { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: {} },
      { name: 'busybox', image: 'busybox:1.36', resources: {} },
    ]),
    'Deployment/gen-cmd': deployment('gen-cmd', 1, [
      { name: 'busybox', image: 'busybox:1.36', command: ['sleep', '3600'], resources: {} },
    ]),
    'Service/gen-web': service('gen-web', {
      ports: [
        { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
        { name: '443-https', protocol: 'TCP', port: 443, targetPort: 'https' },
      ],
      selector: { app: 'gen-web' },
      clusterIP: 'None',
      type: 'ClusterIP',
    }),
    'Service/gen-np': service('gen-np', {
      ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080, nodePort }],
      selector: { app: 'gen-np' },
      type: 'NodePort',
    }),
    'Service/gen-ext': service('gen-ext', {
      selector: { app: 'gen-ext' },
      type: 'ExternalName',
      externalName: 'example.com',
    }),
  };
}

function deployment(name: string, replicas: number, containers: object[]): object {
  const labels = { app: name };
  return {
    metadata: { name, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      // kubectl 1.31 sends the template's zero creationTimestamp as null; kube-apiserver 1.35+
      // writes nothing for it (ObjectMeta tags it `omitzero`), as watchmark does for a protobuf
      // body (see the comparison below).
      template: { metadata: { labels }, spec: { containers } },
      strategy: {},
    },
    status: {},
  };
}

function service(name: string, spec: object): object {
  return { metadata: { name, labels: { app: name } }, spec, status: { loadBalancer: {} } };
}

/**
 * Runs the generators in this kubectl's namespace and checks the stored objects hold what the
 * user set. Returns them, minus the per-run metadata, for the comparison across kubectls.
 */
export async function createWithGenerators({
  kubectl,
  minor,
  nodePort,
}: ScenarioContext): Promise<GeneratedObjects> {
  const USER_SET = userSet(nodePort);
  // -v=8 logs the request headers: the protobuf path is the one under test from 1.32 on.
  const web = await kubectl.inNamespace([
    'create',
    'deployment',
    'gen-web',
    '--image=nginx:1.27',
    '--image=busybox:1.36',
    '--port=80',
    '--replicas=2',
    '-v=8',
  ]);
  expectOkVerbose(web, 'deployment.apps/gen-web created\n');
  const sent = /Content-Type: (\S+)/.exec(web.stderr)?.[1];
  expect(sent).toBe(minor >= 32 ? 'application/vnd.kubernetes.protobuf' : 'application/json');
  // kubectl refuses a command with more than one --image.
  expectOk(
    await kubectl.inNamespace([
      'create',
      'deployment',
      'gen-cmd',
      '--image=busybox:1.36',
      '--',
      'sleep',
      '3600',
    ]),
    'deployment.apps/gen-cmd created\n',
  );
  expectOk(
    await kubectl.inNamespace([
      'create',
      'service',
      'clusterip',
      'gen-web',
      '--clusterip=None',
      '--tcp=80:8080',
      '--tcp=443:https',
    ]),
    'service/gen-web created\n',
  );
  expectOk(
    await kubectl.inNamespace([
      'create',
      'service',
      'nodeport',
      'gen-np',
      '--tcp=80:8080',
      `--node-port=${nodePort}`,
    ]),
    'service/gen-np created\n',
  );
  expectOk(
    await kubectl.inNamespace([
      'create',
      'service',
      'externalname',
      'gen-ext',
      '--external-name=example.com',
    ]),
    'service/gen-ext created\n',
  );

  const list = jsonOf(
    await kubectl.inNamespace([
      'get',
      'deployment/gen-web',
      'deployment/gen-cmd',
      'service/gen-web',
      'service/gen-np',
      'service/gen-ext',
      '-o',
      'json',
    ]),
  );
  const stored: GeneratedObjects = {};
  for (const item of list.items) {
    const key = `${item.kind}/${item.metadata.name}`;
    expect(item, key).toMatchObject(USER_SET[key]);
    expect(item.metadata.namespace, key).toBe(kubectl.namespace);
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) {
      delete item.metadata[field];
    }
    // The template's zero creationTimestamp: a protobuf body stores none, as Go does (`omitzero`);
    // watchmark's JSON path still keeps the null kubectl 1.31 sends, which kube-apiserver drops.
    if (item.spec?.template?.metadata?.creationTimestamp === null) {
      delete item.spec.template.metadata.creationTimestamp;
    }
    if (item.kind === 'Service') {
      // Allocated by the server (a random cluster IP) or chosen per kubectl (the node port).
      const ip = item.spec.clusterIP;
      if (item.spec.type !== 'ExternalName' && ip !== 'None') {
        expect(ip, key).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
        expect(item.spec.clusterIPs, key).toEqual([ip]);
        delete item.spec.clusterIP;
        delete item.spec.clusterIPs;
      }
      for (const port of item.spec.ports ?? []) delete port.nodePort;
    }
    stored[key] = item;
  }
  expect(Object.keys(stored).sort()).toEqual(Object.keys(USER_SET).sort());
  return stored;
}
