/**
 * The bootstrap objects every start writes: the same objects at every start, a later start in
 * the process storing again what the first one prepared (create-missing.ts), with new uids and
 * times; a start over a store that has them writes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/protocol/events.js';
import { startServer } from '../../../src/server/index.js';
import { call } from '../../helpers/server.js';

const PATHS = [
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  '/apis/rbac.authorization.k8s.io/v1/roles',
  '/apis/rbac.authorization.k8s.io/v1/rolebindings',
  '/apis/scheduling.k8s.io/v1/priorityclasses',
  '/apis/apiregistration.k8s.io/v1/apiservices',
  '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas',
  '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations',
  '/apis/networking.k8s.io/v1/servicecidrs',
];

/** Every bootstrap object, without what differs from start to start. */
async function bootstrapObjects(
  server: Awaited<ReturnType<typeof startServer>>,
): Promise<{ stable: unknown[]; uids: string[] }> {
  const stable: unknown[] = [];
  const uids: string[] = [];
  for (const path of PATHS) {
    const list = (await call(server, 'GET', path)).body as { items: KubeObject[] };
    expect(list.items.length, path).toBeGreaterThan(0);
    for (const o of list.items) {
      const { uid, creationTimestamp, resourceVersion, managedFields, ...meta } = o.metadata ?? {};
      uids.push(String(uid));
      const owners = (managedFields as Array<Record<string, unknown>>).map(({ time, ...rest }) => rest);
      const status = o.status as { conditions?: Array<Record<string, unknown>> } | undefined;
      const conditions = status?.conditions?.map(({ lastTransitionTime, ...c }) => c);
      stable.push({
        ...o,
        metadata: { ...meta, owners },
        ...(conditions ? { status: { ...status, conditions } } : {}),
      });
    }
  }
  return { stable, uids };
}

describe('bootstrap objects', () => {
  it('are the same at every start of a process, with uids of their own', async () => {
    const first = await startServer({ insecureHttp: true, insecureNoAuth: true });
    const second = await startServer({ insecureHttp: true, insecureNoAuth: true });
    try {
      const [a, b] = [await bootstrapObjects(first), await bootstrapObjects(second)];
      expect(b.stable).toEqual(a.stable);
      expect(a.stable.length).toBeGreaterThan(150);
      expect(b.uids.filter((u) => a.uids.includes(u))).toEqual([]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('are not written again over a store that has them', async () => {
    const first = await startServer({ insecureHttp: true, insecureNoAuth: true });
    const snapshot = await first.snapshot();
    await first.close();
    const again = await startServer({ insecureHttp: true, insecureNoAuth: true, startFrom: snapshot });
    try {
      expect(await again.store.currentRevision()).toBe(snapshot.revision);
    } finally {
      await again.close();
    }
  });
});
