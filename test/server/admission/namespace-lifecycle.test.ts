import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { type Answer, call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { waitUntil } from '../../helpers/wait.js';
import { useKubectlServer } from '../kubectl/fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const MERGE = { 'content-type': 'application/merge-patch+json' };
let counter = 0;
const fresh = async (): Promise<string> => {
  const ns = `adm${++counter}`;
  await ensureNamespace(s, ns);
  return ns;
};

/** Every key, value and revision in the store, and the store's revision: what "nothing changed" means. */
async function snapshot(server: RunningServer): Promise<unknown> {
  const { items } = await server.store.list('/');
  return {
    revision: await server.store.currentRevision(),
    items: items.map((kv) => [kv.key, kv.modRevision, kv.value]),
  };
}

/** The 403 kube-apiserver answers for a delete of an immortal namespace. */
function immortal(name: string) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
    reason: 'Forbidden',
    details: { name, kind: 'namespaces' },
    code: 403,
  };
}

function expectAnswer(r: Answer, code: number, body: unknown): void {
  expect(r.status, r.text).toBe(code);
  expect(r.body).toEqual(body);
}

/** Deletes `ns` and waits until it is Terminating (it holds `held` pods with a finalizer). */
async function terminating(ns: string): Promise<void> {
  const held = pod('held');
  (held.metadata as Record<string, unknown>).finalizers = ['example.com/hold'];
  expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/pods`, { body: held })).status).toBe(201);
  expect((await call(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
}

async function release(ns: string): Promise<void> {
  await call(s, 'PATCH', `/api/v1/namespaces/${ns}/pods/held`, {
    body: { metadata: { finalizers: null } },
    headers: MERGE,
  });
  await waitUntil(
    async () => (await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status === 404,
    `namespace ${ns} gone`,
  );
}

describe('immortal namespaces', () => {
  it.each(['default', 'kube-system', 'kube-public'])(
    'DELETE %s is a 403 and changes nothing',
    async (name) => {
      const before = await snapshot(s);
      expectAnswer(await call(s, 'DELETE', `/api/v1/namespaces/${name}`), 403, immortal(name));
      expectAnswer(await call(s, 'DELETE', `/api/v1/namespaces/${name}?dryRun=All`), 403, immortal(name));
      expectAnswer(
        await call(s, 'DELETE', `/api/v1/namespaces/${name}`, {
          body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' },
        }),
        403,
        immortal(name),
      );
      expect(await snapshot(s)).toEqual(before);
      const ns = await call(s, 'GET', `/api/v1/namespaces/${name}`);
      expect(ns.body.status).toEqual({ phase: 'Active' });
      expect(ns.body.metadata.deletionTimestamp).toBeUndefined();
    },
  );

  it('a failed precondition answers first, as the namespace storage checks it before admission', async () => {
    const r = await call(s, 'DELETE', '/api/v1/namespaces/kube-system', {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } },
    });
    expect(r.status, r.text).toBe(409);
  });

  it('a collection delete does not remove them either', async () => {
    // kube-apiserver serves no deletecollection on namespaces at all (the namespace REST storage
    // has no DeleteCollection: a 405). Whatever this server answers there, an immortal namespace
    // must survive it, with nothing changed.
    const before = await snapshot(s);
    const r = await call(
      s,
      'DELETE',
      '/api/v1/namespaces?labelSelector=kubernetes.io%2Fmetadata.name%20in%20(default,kube-system,kube-public)',
    );
    expect([403, 405], r.text).toContain(r.status);
    expect(await snapshot(s)).toEqual(before);
  });

  it('kube-node-lease is not immortal upstream: it goes, and comes back as the system namespaces controller makes it', async () => {
    const server = await startTestServer();
    try {
      const before = (await call(server, 'GET', '/api/v1/namespaces/kube-node-lease')).body.metadata.uid;
      const r = await call(server, 'DELETE', '/api/v1/namespaces/kube-node-lease');
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.phase).toBe('Terminating');
      await waitUntil(async () => {
        const now = await call(server, 'GET', '/api/v1/namespaces/kube-node-lease');
        return now.status === 200 && now.body.metadata.uid !== before && !now.body.metadata.deletionTimestamp;
      }, 'kube-node-lease created again');
    } finally {
      await server.close();
    }
  });

  it('a dryRun delete of another namespace answers it Terminating and changes nothing', async () => {
    const ns = await fresh();
    const before = await snapshot(s);
    const r = await call(s, 'DELETE', `/api/v1/namespaces/${ns}?dryRun=All`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.status.phase).toBe('Terminating');
    expect(r.body.metadata.deletionTimestamp).toBeTruthy();
    // The namespace storage sets only the deletionTimestamp, no grace period.
    expect(r.body.metadata.deletionGracePeriodSeconds).toBeUndefined();
    expect(await snapshot(s)).toEqual(before);
  });
});

describe('content of a Terminating namespace', () => {
  it('a create is a 403 naming the object, with the NamespaceTerminating cause', async () => {
    const ns = await fresh();
    await terminating(ns);
    try {
      const refused = (plural: string, name: string, group?: string) => ({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `${group ? `${plural}.${group}` : plural} "${name}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
        reason: 'Forbidden',
        details: {
          name,
          ...(group ? { group } : {}),
          kind: plural,
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: `namespace ${ns} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
        code: 403,
      });
      const podRefused = refused('pods', 'late');
      expectAnswer(
        await call(s, 'POST', `/api/v1/namespaces/${ns}/pods`, { body: pod('late') }),
        403,
        podRefused,
      );
      // dryRun goes through admission too.
      expectAnswer(
        await call(s, 'POST', `/api/v1/namespaces/${ns}/pods?dryRun=All`, { body: pod('late') }),
        403,
        podRefused,
      );
      // Admission runs before validation: an invalid object is refused the same way.
      expectAnswer(
        await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { metadata: { name: 'Bad_Name' } },
        }),
        403,
        refused('configmaps', 'Bad_Name'),
      );
      // A generated name is not chosen yet: the error names the generateName.
      expectAnswer(
        await call(s, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
          body: { metadata: { generateName: 'web-' }, spec: {} },
        }),
        403,
        refused('deployments', 'web-', 'apps'),
      );
      expectAnswer(
        await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: {} } }),
        403,
        refused('configmaps', 'Unknown'),
      );
      // Server-side apply creating an object is a create too.
      const applied = await call(s, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/applied?fieldManager=t`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' } },
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      expect(applied.status, applied.text).toBe(403);
      expect(applied.body.details.causes[0].reason).toBe('NamespaceTerminating');
    } finally {
      await release(ns);
    }
  });

  it('updates and deletes there pass, as the plugin lets every non-create through', async () => {
    const ns = await fresh();
    const other = pod('other');
    (other.metadata as Record<string, unknown>).finalizers = ['example.com/hold'];
    expect((await call(s, 'POST', `/api/v1/namespaces/${ns}/pods`, { body: other })).status).toBe(201);
    await terminating(ns);
    try {
      const labelled = await call(s, 'PATCH', `/api/v1/namespaces/${ns}/pods/held`, {
        body: { metadata: { labels: { still: 'writable' } } },
        headers: MERGE,
      });
      expect(labelled.status, labelled.text).toBe(200);
      expect(labelled.body.metadata.labels).toEqual({ still: 'writable' });
      const deleted = await call(s, 'DELETE', `/api/v1/namespaces/${ns}/pods/other`);
      expect(deleted.status, deleted.text).toBe(200);
      const gone = await call(s, 'PATCH', `/api/v1/namespaces/${ns}/pods/other`, {
        body: { metadata: { finalizers: null } },
        headers: MERGE,
      });
      expect(gone.status, gone.text).toBe(200);
      // The namespace's own metadata can change too, and that does not end it early.
      const ns1 = await call(s, 'PATCH', `/api/v1/namespaces/${ns}`, {
        body: { metadata: { labels: { team: 'x' } } },
        headers: MERGE,
      });
      expect(ns1.status, ns1.text).toBe(200);
      expect(ns1.body.status.phase).toBe('Terminating');
      expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);
    } finally {
      await release(ns);
    }
  });

  it('a create in a namespace that does not exist is a 404', async () => {
    expectAnswer(await call(s, 'POST', '/api/v1/namespaces/nowhere/pods', { body: pod('p') }), 404, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces "nowhere" not found',
      reason: 'NotFound',
      details: { name: 'nowhere', kind: 'namespaces' },
      code: 404,
    });
  });
});

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('kubectl', () => {
  const env = useKubectlServer(kubectls[0], 'default');

  it("kubectl delete ns kube-system prints kube-apiserver's error and exits 1", async () => {
    const r = await env.kubectl.run(['delete', 'ns', 'kube-system']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted\n',
    );
    expect((await call(env.server, 'GET', '/api/v1/namespaces/kube-system')).body.status.phase).toBe(
      'Active',
    );
  });
});
