/**
 * Realistic pod objects for the client benchmark, about 1.6 KB of JSON each:
 * what a ReplicaSet-owned, scheduled, running pod looks like in a real
 * cluster (labels, annotations, an owner reference, one container with a port,
 * env and resources; status with three conditions and a container
 * status), minus managedFields. Deterministic for a given index.
 */
import type { KubeObject } from '../../src/index.js';

const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);

/** A deterministic UID-shaped string. */
function uid(seed: number): string {
  const a = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  const b = Math.imul(seed ^ 0xc2b2ae35, 0x27d4eb2f);
  return `${hex(a, 8)}-${hex(b, 4)}-4${hex(a >>> 4, 3)}-a${hex(b >>> 8, 3)}-${hex(a ^ b, 8)}${hex(seed, 4)}`;
}

/** Pod number `i` of `namespace` (about 1.6 KB as JSON, without resourceVersion). */
export function makePod(namespace: string, i: number): KubeObject {
  const app = `app-${i % 50}`;
  const hash = hex(Math.imul(i % 50, 0x45d9f3b) ^ 0x5bd1e995, 10).slice(0, 10);
  const name = `${app}-${hash}-${hex(Math.imul(i, 0x27d4eb2d), 5)}${i}`;
  const started = `2024-05-${String(1 + (i % 28)).padStart(2, '0')}T10:${String(i % 60).padStart(2, '0')}:00Z`;
  const node = `node-${String(i % 200).padStart(4, '0')}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: `${app}-${hash}-`,
      namespace,
      uid: uid(i),
      creationTimestamp: started,
      labels: { app, 'pod-template-hash': hash, tier: i % 3 ? 'backend' : 'frontend' },
      annotations: {
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-${hash}`,
          uid: uid(i % 50),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: app,
          image: `ghcr.io/acme/${app}:1.4.2`,
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [{ name: 'LOG_LEVEL', value: 'info' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      serviceAccountName: 'default',
      nodeName: node,
    },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: started,
      })),
      podIP: `10.244.${(i >> 8) & 255}.${i & 255}`,
      startTime: started,
      containerStatuses: [
        {
          name: app,
          state: { running: { startedAt: started } },
          ready: true,
          restartCount: 0,
          image: `ghcr.io/acme/${app}:1.4.2`,
          containerID: `containerd://${hex(i * 7, 8).repeat(8)}`,
          started: true,
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

/** The pod after its `generation`-th status update (a restart count and an annotation change). */
export function churnPod(pod: KubeObject, generation: number): KubeObject {
  const p = pod as KubeObject & { status: { containerStatuses: Array<{ restartCount: number }> } };
  return {
    ...p,
    metadata: {
      ...p.metadata,
      annotations: { ...p.metadata?.annotations, 'bench.watchmark.dev/generation': String(generation) },
    },
    status: {
      ...p.status,
      containerStatuses: p.status.containerStatuses.map((c) => ({ ...c, restartCount: generation })),
    },
  };
}
