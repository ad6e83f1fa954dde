/**
 * The Node object a simulated kubelet registers, and its Lease: what a real
 * kubelet v1.33 on containerd reports (labels, capacity, conditions with
 * their reasons and messages, addresses, nodeInfo), with made-up but
 * plausible machine figures.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../protocol/events.js';
import { type Condition, microTime, type Node, rfc3339 } from '../core/objects.js';

/** The kubelet version the simulated nodes report. */
export const KUBELET_VERSION = 'v1.33.1';

/** The namespace of node heartbeat Leases. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** Lease duration the kubelet asks for (its default `nodeLeaseDurationSeconds`). */
const LEASE_DURATION_SECONDS = 40;

/** `a.b.c.d` for a node index: 172.18.0.2, 172.18.0.3, ... */
export function nodeIP(index: number): string {
  const n = index + 2;
  return `172.18.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** The node's pod CIDR: 10.244.<index>.0/24 (and onwards for large clusters). */
export function podCIDR(index: number): string {
  return `10.${244 + Math.floor(index / 256)}.${index % 256}.0/24`;
}

function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The four conditions of a healthy node, all transitioned at `nowMs`. */
export function nodeConditions(nowMs: number): Condition[] {
  const t = rfc3339(nowMs);
  const c = (type: string, status: Condition['status'], reason: string, message: string): Condition => ({
    type,
    status,
    lastHeartbeatTime: t,
    lastTransitionTime: t,
    reason,
    message,
  });
  return [
    c('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    c('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

/** Where kube-apiserver reaches a kubelet: the Node's `Hostname` address and kubelet port. */
export interface KubeletEndpoint {
  hostname: string;
  port: number;
}

/**
 * The Node a kubelet registers; `endpoint`, when the kubelets serve their API (logs.ts), is the
 * Hostname address and port they report instead of the node name and 10250.
 */
export function nodeObject(
  name: string,
  index: number,
  podCapacity: number,
  nowMs: number,
  endpoint?: KubeletEndpoint,
): Node {
  const capacity = {
    cpu: '4',
    'ephemeral-storage': '102626232Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: '16365108Ki',
    pods: String(podCapacity),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: { podCIDR: podCIDR(index), podCIDRs: [podCIDR(index)] },
    status: {
      capacity,
      allocatable: { ...capacity, cpu: '3800m', memory: '15250996Ki' },
      conditions: nodeConditions(nowMs),
      addresses: [
        { type: 'InternalIP', address: nodeIP(index) },
        { type: 'Hostname', address: endpoint?.hostname ?? name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: endpoint?.port ?? 10250 } },
      nodeInfo: {
        machineID: createHash('md5').update(name).digest('hex'),
        systemUUID: uuidFrom(`system/${name}`),
        bootID: uuidFrom(`boot/${name}/${nowMs}`),
        kernelVersion: '6.8.0-57-generic',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://2.1.1',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      images: [],
    },
  };
}

/** The node's heartbeat Lease, owned by the Node (so it goes with it). */
export function leaseObject(node: Node, nowMs: number): KubeObject {
  const name = node.metadata?.name ?? '';
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata?.uid ?? '' }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime(nowMs) },
  };
}
