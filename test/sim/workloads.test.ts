import { describe, expect, it } from 'vitest';
import { buildDeployment, buildNamespace, buildPod } from '../../src/sim/index.js';

describe('workload builders', () => {
  it('a Pod holds only what was asked for, one container of nginx:1.27 by default', () => {
    expect(buildPod('a')).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
    });
    const bound = buildPod('b', {
      namespace: 'demo',
      labels: { app: 'x' },
      annotations: { note: 'y' },
      nodeName: 'node-1',
      container: 'app',
      image: 'registry.k8s.io/pause:3.10',
      ports: [8080],
    });
    expect(bound).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'b', namespace: 'demo', labels: { app: 'x' }, annotations: { note: 'y' } },
      spec: {
        nodeName: 'node-1',
        containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', ports: [{ containerPort: 8080 }] }],
      },
    });
    // No undefined fields: what is sent is what the object says.
    expect(JSON.stringify(buildPod('a'))).not.toContain('undefined');
  });

  it('a Deployment selects its pods by app=<name>, in its selector and its template alike', () => {
    const d = buildDeployment('web', { namespace: 'demo', replicas: 2, spec: { minReadySeconds: 5 } });
    expect(d).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'demo' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
        minReadySeconds: 5,
      },
    });
    // The selector and the template's labels are separate objects: changing one leaves the other.
    expect(d.spec.selector?.matchLabels).not.toBe(d.spec.template?.metadata?.labels);
    expect(buildDeployment('x').spec.replicas).toBe(3);
  });

  it('a Namespace is its name', () => {
    expect(buildNamespace('demo')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'demo' },
    });
  });
});
