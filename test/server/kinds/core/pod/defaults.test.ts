import { describe, expect, it } from 'vitest';
import { imageTag, podQOSClass } from '../../../../../src/server/kinds/core/pod/defaults.js';
import {
  containerDefaults,
  defaulted,
  minimalDeployment,
  minimalPod,
  podSpecDefaults,
} from '../../defaults-fixture.js';

// The expected objects are `kubectl get -o yaml` of these manifests on a real
// cluster, minus what other layers add: server metadata, the allocated
// clusterIP, the service-account token volume, and the template's
// `creationTimestamp: null` (a Go serialization artefact).

describe('defaults match a real cluster', () => {
  it('minimal Pod (with the admission plugins that read nothing; the ServiceAccount plugin is admission/)', () => {
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
});
