/**
 * REST over real HTTP, deletes: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { call, pod, startTestServer, watch } from '../../../helpers/server.js';
import { waitUntil } from '../../../helpers/wait.js';
import { deployment, deploys, expectStatus, JSON_PATCH, MERGE, pods, restHelpers } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

describe('delete', () => {
  it('answers the deleted object', async () => {
    const ns = await freshNamespace();
    const p = await created(pods(ns), pod('a'));
    const r = await call(s, 'DELETE', `${pods(ns)}/a`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: 'Pod', metadata: { name: 'a', uid: p.metadata.uid } });
    expect((await call(s, 'GET', `${pods(ns)}/a`)).status).toBe(404);
    expectStatus(await call(s, 'DELETE', `${pods(ns)}/a`), 404, 'NotFound');
  });

  it('with finalizers marks the object, which goes when the last finalizer is removed', async () => {
    const ns = await freshNamespace();
    const body = pod('held');
    (body.metadata as Record<string, unknown>).finalizers = ['example.com/a', 'example.com/b'];
    const p = await created(pods(ns), body);
    const w = await watch(s, `${pods(ns)}?watch=1&resourceVersion=${p.metadata.resourceVersion}`);
    try {
      const r = await call(s, 'DELETE', `${pods(ns)}/held`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      const marked = await w.next();
      expect(marked.type).toBe('MODIFIED');
      expect(marked.object.metadata?.deletionTimestamp).toBeTruthy();
      // Still there, and a second delete changes nothing.
      const again = await call(s, 'DELETE', `${pods(ns)}/held`);
      expect(again.body.metadata.resourceVersion).toBe(r.body.metadata.resourceVersion);
      const oneLeft = await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: [{ op: 'remove', path: '/metadata/finalizers/0' }],
        headers: JSON_PATCH,
      });
      expect(oneLeft.status, oneLeft.text).toBe(200);
      expect(oneLeft.body.metadata.finalizers).toEqual(['example.com/b']);
      expect((await w.next()).type).toBe('MODIFIED');
      const gone = await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: { metadata: { finalizers: null } },
        headers: MERGE,
      });
      expect(gone.status, gone.text).toBe(200);
      const deleted = await w.next();
      expect(deleted.type).toBe('DELETED');
      expect(deleted.object.metadata?.name).toBe('held');
      expect((await call(s, 'GET', `${pods(ns)}/held`)).status).toBe(404);
    } finally {
      w.close();
    }
  });

  it('propagationPolicy Foreground and Orphan add their finalizers', async () => {
    const ns = await freshNamespace();
    await created(deploys(ns), deployment('fg'));
    await created(deploys(ns), deployment('orph'));
    const fg = await call(s, 'DELETE', `${deploys(ns)}/fg?propagationPolicy=Foreground`);
    expect(fg.status, fg.text).toBe(200);
    expect(fg.body.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(fg.body.metadata.deletionTimestamp).toBeTruthy();
    const orphan = await call(s, 'DELETE', `${deploys(ns)}/orph`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' },
    });
    expect(orphan.status, orphan.text).toBe(200);
    expect(orphan.body.metadata.finalizers).toEqual(['orphan']);
    // delete.go answers invalid DeleteOptions (`ValidateDeleteOptions`) with a 422.
    const sideways = await call(s, 'DELETE', `${deploys(ns)}/orph?propagationPolicy=Sideways&dryRun=Some`);
    expectStatus(sideways, 422, 'Invalid');
    expect(sideways.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: ["Some"]: supported values: "All"]',
    );
    // A body's options stand alone: the query's are not read (delete.go `DeleteResource`).
    const both = await call(s, 'DELETE', `${deploys(ns)}/orph?propagationPolicy=Sideways`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Orphan' },
    });
    expectStatus(both, 422, 'Invalid');
    expect(both.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
  });

  it('a body that is not DeleteOptions is a 400 before anything is deleted, dry run or not', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('kept'));
    // delete.go decodes the body with the meta scheme: another kind is not registered there (the
    // kube-apiserver 1.37 answer, probed), and a body's options stand alone, so the query's
    // dryRun would not have held the deletion back.
    const object = await call(s, 'DELETE', `${pods(ns)}/kept?dryRun=All`, { body: pod('kept') });
    expectStatus(object, 400, 'BadRequest');
    expect(object.body.message).toBe(
      'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
    );
    const noVersion = await call(s, 'DELETE', pods(ns), { body: { kind: 'Pod' } });
    expect(noVersion.body.message).toBe(
      'no kind "Pod" is registered for version "meta.k8s.io/v1" in scheme "pkg/runtime/scheme.go:111"',
    );
    const options = await call(s, 'DELETE', `${pods(ns)}/kept`, {
      body: { apiVersion: 'x/y', kind: 'CreateOptions' },
    });
    expectStatus(options, 400, 'BadRequest');
    expect(options.body.message).toBe(
      'converting (v1.CreateOptions) to (v1.DeleteOptions): unknown conversion',
    );
    expect((await call(s, 'GET', `${pods(ns)}/kept`)).status).toBe(200);
  });

  it('a precondition that does not hold is a 409', async () => {
    const ns = await freshNamespace();
    const p = await created(pods(ns), pod('a'));
    const uid = await call(s, 'DELETE', `${pods(ns)}/a`, { body: { preconditions: { uid: 'not-the-uid' } } });
    // rest.BeforeDelete names the object by its kind, in the message and the details.
    expectStatus(uid, 409, 'Conflict');
    expect(uid.body.message).toBe(
      `Operation cannot be fulfilled on Pod "a": the UID in the precondition (not-the-uid) does not match the UID in record (${p.metadata.uid}). The object might have been deleted and then recreated`,
    );
    expect(uid.body.details).toEqual({ name: 'a', kind: 'Pod' });
    const rv = await call(s, 'DELETE', `${pods(ns)}/a`, {
      body: { preconditions: { resourceVersion: '1' } },
    });
    expectStatus(rv, 409, 'Conflict');
    expect(rv.body.message).toBe(
      `Operation cannot be fulfilled on Pod "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${p.metadata.resourceVersion}). The object might have been modified`,
    );
    const ok = await call(s, 'DELETE', `${pods(ns)}/a`, {
      body: { preconditions: { uid: p.metadata.uid, resourceVersion: p.metadata.resourceVersion } },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('deletes a collection by label selector', async () => {
    const ns = await freshNamespace();
    for (const [name, app] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
    ])
      await created(pods(ns), pod(name, { labels: { app } }));
    const r = await call(s, 'DELETE', `${pods(ns)}?labelSelector=app%3Da`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.kind).toBe('PodList');
    expect(r.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['a1', 'a2']);
    const left = await call(s, 'GET', pods(ns));
    expect(left.body.items.map((i: any) => i.metadata.name)).toEqual(['b1']);
  });

  it('deleting a namespace removes its content, then the namespace; a terminating one refuses new content', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    await created(deploys(ns), deployment('web'));
    const held = pod('held');
    (held.metadata as Record<string, unknown>).finalizers = ['example.com/hold'];
    await created(pods(ns), held);
    const w = await watch(s, `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D${ns}`);
    try {
      expect((await w.next()).type).toBe('ADDED');
      const r = await call(s, 'DELETE', `/api/v1/namespaces/${ns}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.status.phase).toBe('Terminating');
      expect(r.body.metadata.deletionTimestamp).toBeTruthy();
      const refused = await call(s, 'POST', pods(ns), { body: pod('late') });
      expectStatus(refused, 403, 'Forbidden');
      expect(refused.body.message).toBe(
        `pods "late" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
      );
      // The held pod keeps the namespace Terminating until its finalizer goes.
      await waitUntil(
        async () => (await call(s, 'GET', pods(ns))).body.items.length === 1,
        `one pod left in ${ns}`,
        5000,
        20,
      );
      const stillHeld = await call(s, 'GET', `${pods(ns)}/held`);
      expect(stillHeld.body.metadata.deletionTimestamp).toBeTruthy();
      expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      await call(s, 'PATCH', `${pods(ns)}/held`, {
        body: { metadata: { finalizers: null } },
        headers: MERGE,
      });
      await w.until((e) => e.type === 'DELETED', 5000);
      expect((await call(s, 'GET', `/api/v1/namespaces/${ns}`)).status).toBe(404);
      expect((await call(s, 'GET', deploys(ns))).body.items).toEqual([]);
      expect((await call(s, 'GET', pods(ns))).body.items).toEqual([]);
    } finally {
      w.close();
    }
  });
});
