/** What the strategic merge patch suites share: a live Deployment, readers of its pod spec, and checks. */
import { expect } from 'vitest';
import { StatusError } from '../../../src/protocol/status.js';

export type Obj = Record<string, unknown>;

/** A live Deployment as the server stores it (server-set fields included). */
export function liveDeployment(): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'demo',
      uid: 'u1',
      resourceVersion: '7',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['a', 'b'],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              imagePullPolicy: 'IfNotPresent',
            },
            { name: 'd', image: 'busybox' },
          ],
          tolerations: [{ key: 'k', operator: 'Exists' }],
          volumes: [{ name: 'v', emptyDir: {} }],
        },
      },
    },
    status: { conditions: [{ type: 'Available', status: 'True' }], replicas: 1 },
  };
}

export function podSpec(obj: unknown): Obj {
  return ((obj as Obj).spec as Obj & { template: { spec: Obj } }).template.spec;
}

export function containers(obj: unknown): Obj[] {
  return podSpec(obj).containers as Obj[];
}

export function thrown(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return err as StatusError;
  }
  throw new Error('expected a StatusError');
}

/** True when no key anywhere in `value` is a patch directive. */
export function noDirectives(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(noDirectives);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([k, v]) => !k.startsWith('$') && noDirectives(v));
  }
  return true;
}
