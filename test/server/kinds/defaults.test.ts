import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { imageTag, podQOSClass } from '../../../src/server/kinds/core/pod/defaults.js';
import { findByKind, REGISTRY } from '../../../src/server/kinds/served/registry.js';

function defaulted(apiVersion: string, kind: string, obj: KubeObject): KubeObject {
  const k = findByKind(apiVersion, kind)!;
  const copy = structuredClone(obj);
  k.defaults?.(copy);
  return copy;
}

const containerDefaults = {
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
};

const podSpecDefaults = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
};

const minimalDeployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'demo', labels: { app: 'web' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
    },
  },
};

const minimalPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'demo' },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

const minimalService: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'demo' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
};

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact).
describe('defaults match a real cluster', () => {
  it('minimal Deployment', () => {
    expect(defaulted('apps/v1', 'Deployment', minimalDeployment)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'demo', labels: { app: 'web' } },
      spec: {
        progressDeadlineSeconds: 600,
        replicas: 1,
        revisionHistoryLimit: 10,
        selector: { matchLabels: { app: 'web' } },
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', name: 'nginx', ...containerDefaults },
            ],
            ...podSpecDefaults,
          },
        },
      },
      status: {},
    });
  });

  it('minimal Pod (with the admission plugins every cluster runs)', () => {
    expect(defaulted('v1', 'Pod', minimalPod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'demo' },
      spec: {
        containers: [{ image: 'nginx', imagePullPolicy: 'Always', name: 'c', ...containerDefaults }],
        ...podSpecDefaults,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: 0,
        serviceAccount: 'default',
        serviceAccountName: 'default',
        tolerations: [
          {
            effect: 'NoExecute',
            key: 'node.kubernetes.io/not-ready',
            operator: 'Exists',
            tolerationSeconds: 300,
          },
          {
            effect: 'NoExecute',
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            tolerationSeconds: 300,
          },
        ],
      },
      // phase Pending is the strategy's PrepareForCreate (core/pod/strategy.ts), not a default.
      status: { qosClass: 'BestEffort' },
    });
  });

  it('minimal Service', () => {
    expect(defaulted('v1', 'Service', minimalService)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'demo' },
      spec: {
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
        selector: { app: 'web' },
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
  });

  it('minimal ReplicaSet, StatefulSet and DaemonSet', () => {
    const template = minimalDeployment.spec as { selector: unknown; template: unknown };
    const rs = defaulted('apps/v1', 'ReplicaSet', { spec: structuredClone(template) });
    expect(rs.spec).toMatchObject({ replicas: 1 });
    expect(rs.status).toEqual({ replicas: 0 });

    const sts = defaulted('apps/v1', 'StatefulSet', {
      spec: {
        ...structuredClone(template),
        serviceName: 'web',
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: {} }],
      },
    });
    expect(sts.spec).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      // MaxUnavailableStatefulSet is on by default since 1.37.
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
      ],
    });
    expect(sts.status).toEqual({ availableReplicas: 0, replicas: 0 });

    const ds = defaulted('apps/v1', 'DaemonSet', { spec: structuredClone(template) });
    expect(ds.spec).toMatchObject({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect((ds.spec as { replicas?: number }).replicas).toBeUndefined();
    expect(ds.status).toEqual({
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
    });
  });

  it('StatefulSet maxUnavailable defaults to 1 only in a RollingUpdate strategy with a rollingUpdate', () => {
    const strategyOf = (updateStrategy: unknown) =>
      (defaulted('apps/v1', 'StatefulSet', { spec: { updateStrategy } }).spec as Record<string, unknown>)
        .updateStrategy;
    expect(strategyOf({ type: 'RollingUpdate', rollingUpdate: { partition: 2 } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 2, maxUnavailable: 1 },
    });
    expect(strategyOf({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } })).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: '50%' },
    });
    // A sent RollingUpdate type without rollingUpdate stays without one, as in SetDefaults_StatefulSet.
    expect(strategyOf({ type: 'RollingUpdate' })).toEqual({ type: 'RollingUpdate' });
    expect(strategyOf({ type: 'OnDelete' })).toEqual({ type: 'OnDelete' });
  });

  it('Namespace, Secret, Node, ConfigMap, Event and Lease', () => {
    expect(defaulted('v1', 'Namespace', { metadata: { name: 'demo' } })).toEqual({
      metadata: { name: 'demo', labels: { 'kubernetes.io/metadata.name': 'demo' } },
      status: { phase: 'Active' },
    });
    expect(defaulted('v1', 'Secret', { metadata: { name: 's' }, data: { a: 'YQ==' } })).toEqual({
      metadata: { name: 's' },
      data: { a: 'YQ==' },
      type: 'Opaque',
    });
    expect(
      defaulted('v1', 'Node', {
        spec: { podCIDR: '10.244.1.0/24' },
        status: { capacity: { cpu: '4', pods: '110' } },
      }),
    ).toEqual({
      spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
      status: {
        capacity: { cpu: '4', pods: '110' },
        allocatable: { cpu: '4', pods: '110' },
        // Go's zero values of the non-omitempty fields.
        daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
        nodeInfo: {
          machineID: '',
          systemUUID: '',
          bootID: '',
          kernelVersion: '',
          osImage: '',
          containerRuntimeVersion: '',
          kubeletVersion: '',
          kubeProxyVersion: '',
          operatingSystem: '',
          architecture: '',
        },
      },
    });
    expect(defaulted('v1', 'Node', {})).toMatchObject({ spec: {}, status: { nodeInfo: { machineID: '' } } });
    expect(defaulted('v1', 'ConfigMap', { metadata: { name: 'x' } })).toEqual({ metadata: { name: 'x' } });
    // An Event's non-omitempty fields are always written: zero times as null, strings as "".
    expect(defaulted('v1', 'Event', { metadata: { name: 'x' } })).toEqual({
      metadata: { name: 'x' },
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
    expect(defaulted('coordination.k8s.io/v1', 'Lease', { spec: {} })).toEqual({ spec: {} });
  });
});

describe('defaults in detail', () => {
  it('chooses imagePullPolicy from the tag, like parsers.ParseImageName', () => {
    const policy = (image: string) =>
      (
        defaulted('v1', 'Pod', { spec: { containers: [{ name: 'c', image }] } }).spec as {
          containers: { imagePullPolicy: string }[];
        }
      ).containers[0].imagePullPolicy;
    expect(policy('nginx')).toBe('Always');
    expect(policy('nginx:latest')).toBe('Always');
    expect(policy('localhost:5000/nginx')).toBe('Always');
    expect(policy('nginx:1.25')).toBe('IfNotPresent');
    expect(policy('localhost:5000/nginx:1.25')).toBe('IfNotPresent');
    expect(policy('nginx@sha256:0123456789abcdef')).toBe('IfNotPresent');
    expect(policy('nginx:latest@sha256:0123456789abcdef')).toBe('Always');
    expect(imageTag('')).toBe('');
    expect(imageTag('Nginx')).toBe('');
  });

  it('defaults ports, probes, env field refs and volumes', () => {
    const pod = defaulted('v1', 'Pod', {
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'c',
            image: 'app:1',
            ports: [{ containerPort: 8080 }],
            readinessProbe: { httpGet: { port: 8080 } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            resources: { limits: { cpu: '500m', memory: '128Mi' } },
          },
        ],
        volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'cfg' } }],
      },
    });
    const spec = pod.spec as Record<string, never>;
    const c = (spec.containers as Record<string, unknown>[])[0];
    expect(c.ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
    expect(c.readinessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.env).toEqual([
      { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
    ]);
    expect(c.resources).toEqual({
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: '500m', memory: '128Mi' },
    });
    expect(spec.volumes).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
    ]);
    expect(pod.status).toEqual({ qosClass: 'Guaranteed' });
  });

  it('pod templates get PodSpec defaults but no Pod-only ones', () => {
    const dep = defaulted('apps/v1', 'Deployment', minimalDeployment);
    const podSpec = (dep.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    expect(podSpec.enableServiceLinks).toBeUndefined();
    expect(podSpec.serviceAccountName).toBeUndefined();
    expect(podSpec.tolerations).toBeUndefined();
  });

  it('computes the QoS class as qos.GetPodQOS does', () => {
    const spec = (resources: object[]) => ({
      containers: resources.map((r, i) => ({ name: `c${i}`, resources: r })),
    });
    expect(podQOSClass(spec([{}]))).toBe('BestEffort');
    expect(podQOSClass(spec([{ requests: { cpu: '100m' } }]))).toBe('Burstable');
    expect(
      podQOSClass(
        spec([{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } }]),
      ),
    ).toBe('Guaranteed');
    expect(
      podQOSClass(spec([{ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } }])),
    ).toBe('Burstable');
    expect(podQOSClass(spec([{ limits: { cpu: '1', memory: '1Gi' } }, {}]))).toBe('Burstable');
    expect(podQOSClass(spec([{ requests: { 'nvidia.com/gpu': '1' } }]))).toBe('BestEffort');
  });

  it('keeps an existing toleration and a system priority class', () => {
    const pod = defaulted('v1', 'Pod', {
      spec: {
        priorityClassName: 'system-node-critical',
        tolerations: [{ operator: 'Exists' }],
        containers: [{ name: 'c', image: 'x:1' }],
      },
    });
    expect(pod.spec).toMatchObject({ priority: 2000001000, tolerations: [{ operator: 'Exists' }] });
  });

  it('mirrors pod and host IPs', () => {
    const a = defaulted('v1', 'Pod', {
      status: { phase: 'Running', podIP: '10.0.0.1', hostIP: '192.168.0.2' },
    });
    expect(a.status).toMatchObject({ podIPs: [{ ip: '10.0.0.1' }], hostIPs: [{ ip: '192.168.0.2' }] });
    const b = defaulted('v1', 'Pod', { status: { podIPs: [{ ip: '10.0.0.2' }] } });
    expect(b.status).toMatchObject({ podIP: '10.0.0.2' });
  });

  it('moves Secret stringData into data', () => {
    const s = defaulted('v1', 'Secret', {
      data: { a: 'eA==', b: 'eA==' },
      stringData: { b: 'hello', c: 'wörld' },
    });
    expect(s).toEqual({
      type: 'Opaque',
      data: {
        a: 'eA==',
        b: Buffer.from('hello').toString('base64'),
        c: Buffer.from('wörld').toString('base64'),
      },
    });
  });

  it('covers the Service variants', () => {
    const lb = defaulted('v1', 'Service', {
      spec: { type: 'LoadBalancer', ports: [{ port: 443, targetPort: 'https' }] },
    });
    expect(lb.spec).toMatchObject({
      externalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
      ports: [{ port: 443, targetPort: 'https', protocol: 'TCP' }],
    });
    const sticky = defaulted('v1', 'Service', {
      spec: { sessionAffinity: 'ClientIP', clusterIP: '10.96.0.10' },
    });
    expect(sticky.spec).toMatchObject({
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      clusterIPs: ['10.96.0.10'],
    });
    const ext = defaulted('v1', 'Service', { spec: { type: 'ExternalName', externalName: 'example.com' } });
    expect(ext.spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });

  it('keeps the Namespace name label equal to the name, as kube does', () => {
    const ns = defaulted('v1', 'Namespace', {
      metadata: { name: 'demo', labels: { 'kubernetes.io/metadata.name': 'other', team: 'a' } },
    });
    expect(ns.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'demo', team: 'a' });
  });
});

describe('defaults never overwrite and are idempotent', () => {
  const custom: Record<string, KubeObject> = {
    Deployment: {
      spec: {
        replicas: 0,
        revisionHistoryLimit: 0,
        progressDeadlineSeconds: 30,
        strategy: { type: 'Recreate' },
        template: {
          spec: {
            restartPolicy: 'Always',
            dnsPolicy: 'Default',
            terminationGracePeriodSeconds: 0,
            containers: [],
          },
        },
      },
    },
    Pod: {
      spec: {
        enableServiceLinks: false,
        serviceAccountName: 'robot',
        priority: 5,
        preemptionPolicy: 'Never',
        schedulerName: 'mine',
        securityContext: { runAsUser: 1000 },
        containers: [
          {
            name: 'c',
            image: 'nginx',
            imagePullPolicy: 'Never',
            terminationMessagePolicy: 'FallbackToLogsOnError',
            ports: [{ containerPort: 53, protocol: 'UDP' }],
          },
        ],
      },
      status: { phase: 'Running', qosClass: 'Burstable' },
    },
    Service: {
      spec: {
        type: 'NodePort',
        sessionAffinity: 'ClientIP',
        externalTrafficPolicy: 'Local',
        ports: [{ port: 53, protocol: 'UDP', targetPort: 5353 }],
      },
    },
    StatefulSet: {
      spec: { podManagementPolicy: 'Parallel', updateStrategy: { type: 'OnDelete' }, replicas: 3 },
    },
    DaemonSet: {
      spec: {
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } },
      },
    },
    Secret: { type: 'kubernetes.io/tls', data: {} },
    Namespace: { metadata: { name: 'x' }, status: { phase: 'Terminating' } },
  };

  it.each(Object.entries(custom))('%s keeps client values', (kind, obj) => {
    const k = REGISTRY.find((r) => r.kind === kind)!;
    const out = structuredClone(obj);
    k.defaults!(out);
    expect(out).toMatchObject(obj);
  });

  const samples: KubeObject[] = [minimalDeployment, minimalPod, minimalService, ...Object.values(custom), {}];
  it.each(REGISTRY.map((k) => [k.kind, k] as const))(
    '%s defaults are idempotent and accept anything',
    (_, k) => {
      for (const sample of [
        ...samples,
        { spec: 'nonsense', status: 7, metadata: { labels: 'x' } } as unknown as KubeObject,
      ]) {
        const once = structuredClone(sample);
        k.defaults?.(once);
        const twice = structuredClone(once);
        k.defaults?.(twice);
        expect(twice).toEqual(once);
      }
    },
  );
});
