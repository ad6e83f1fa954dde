/**
 * What the REST suites (rest/*.test.ts) share: request paths and content types, a Deployment,
 * the Status check, and per-server helpers for a fresh namespace and a create that waits for
 * the watch cache.
 */
import { expect } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { settled } from '../../../helpers/etcd.js';
import { type Answer, call, ensureNamespace } from '../../../helpers/server.js';

export const pods = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
export const deploys = (ns: string) => `/apis/apps/v1/namespaces/${ns}/deployments`;
export const MERGE = { 'content-type': 'application/merge-patch+json' };
export const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
export const SMP = { 'content-type': 'application/strategic-merge-patch+json' };

export function deployment(name: string, extra: { labels?: Record<string, string>; replicas?: number } = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: extra.labels },
    spec: {
      replicas: extra.replicas ?? 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27' },
            { name: 'sidecar', image: 'busybox:1.36' },
          ],
        },
      },
    },
  };
}

export function expectStatus(r: Answer, code: number, reason?: string): void {
  expect(r.status, r.text).toBe(code);
  expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
  if (reason) expect(r.body.reason).toBe(reason);
}

export async function stats(server: RunningServer): Promise<any> {
  return (await call(server, 'GET', '/debug/watchmark/stats')).body;
}

/**
 * `freshNamespace` and `created` on the server `current()` names at the time of the call: a
 * suite may swap its server (the list rules run over each store).
 */
export function restHelpers(current: () => RunningServer) {
  let nsCounter = 0;
  /** A fresh namespace per test, so tests sharing the server never see each other's objects. */
  async function freshNamespace(server: RunningServer = current()): Promise<string> {
    const ns = `t${++nsCounter}`;
    await ensureNamespace(server, ns);
    return ns;
  }
  async function created(path: string, body: unknown): Promise<any> {
    const s = current();
    const r = await call(s, 'POST', path, { body });
    expect(r.status, r.text).toBe(201);
    // Over etcd the watch cache follows a moment later: cache reads after this must see the object.
    await settled(s);
    return r.body;
  }
  return { freshNamespace, created };
}
