/** What the defaults tests share: a defaulting helper, the defaults every container and PodSpec gets, and minimal objects. */
import type { KubeObject } from '../../../src/protocol/events.js';
import { findByKind } from '../../../src/server/kinds/served/registry.js';

export function defaulted(apiVersion: string, kind: string, obj: KubeObject): KubeObject {
  const k = findByKind(apiVersion, kind)!;
  const copy = structuredClone(obj);
  k.defaults?.(copy);
  return copy;
}

export const containerDefaults = {
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
};

export const podSpecDefaults = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
};

export const minimalDeployment: KubeObject = {
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

export const minimalPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'demo' },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

export const minimalService: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'demo' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
};
