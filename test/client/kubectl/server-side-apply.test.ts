/**
 * The client's server-side apply verbs, `apply` and `applyStatus`: the
 * request they send (recorded by a small real HTTP server), the local
 * refusals client-go makes too, a 409 conflict surfacing as a StatusError
 * with the server's Status, and the verbs against a real watchmark server
 * (create then update, dry run storing nothing, a custom type by name).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { StatusError } from '../../../src/protocol/status.js';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { startTestServer } from '../../helpers/server.js';
import { widgetCrd } from '../../helpers/widget.js';
import { applyConflictStatus, type Recorder, startRecorder } from './ssa-recorder.js';

const tempDir = tempDirForFile('watchmark-ssa-client-');

const configMap = (data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: 'settings' },
  data,
  ...extra,
});

describe('apply: the request', () => {
  let recorder: Recorder;
  let kube: KubeClient;
  beforeAll(async () => {
    recorder = await startRecorder((req) =>
      req.path.endsWith('/contested')
        ? applyConflictStatus('a', '.data.key')
        : { status: 200, body: req.body },
    );
    const kubeconfig = join(tempDir(), 'kubeconfig');
    await recorder.writeKubeconfig(kubeconfig);
    kube = await KubeClient.load({ kubeconfig, qps: 0 });
  });
  afterAll(async () => {
    await kube?.close();
    await recorder?.close();
  });
  const last = () => recorder.requests[recorder.requests.length - 1];

  it('is a PATCH of the whole object as apply-patch+yaml (JSON), with apiVersion and kind added, and the manager', async () => {
    await kube.resource('configmaps', 'demo').apply(configMap({ key: 'v' }), { fieldManager: 'tool' });
    expect(last()).toMatchObject({
      method: 'PATCH',
      path: '/api/v1/namespaces/demo/configmaps/settings',
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { key: 'v' } },
    });
    // force=false is sent too, as client-go's ApplyOptions.ToPatchOptions sends it.
    expect(last().query).toEqual({ fieldManager: 'tool', force: 'false' });
  });

  it('sends force=true, dryRun=All and fieldValidation only when asked', async () => {
    await kube.resource('configmaps', 'demo').apply(configMap({ key: 'v' }), {
      fieldManager: 'tool',
      force: true,
      dryRun: true,
      fieldValidation: 'Strict',
    });
    expect(last().query).toEqual({
      fieldManager: 'tool',
      force: 'true',
      dryRun: 'All',
      fieldValidation: 'Strict',
    });
    await kube
      .resource('configmaps', 'demo')
      .apply(configMap({ key: 'v' }), { fieldManager: 'tool', force: false });
    expect(last().query).toEqual({ fieldManager: 'tool', force: 'false' });
  });

  it("addresses the object's own namespace (the client's is a default), and keeps the apiVersion and kind it carries", async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'other' },
      spec: { replicas: 2 },
    };
    await kube.resource('deployments').apply(deployment, { fieldManager: 'tool' });
    expect(last().path).toBe('/apis/apps/v1/namespaces/other/deployments/web');
    expect(last().body).toEqual(deployment);
  });

  it('applyStatus goes to the status subresource', async () => {
    await kube
      .resource('deployments', 'demo')
      .applyStatus({ metadata: { name: 'web' }, status: { replicas: 1 } }, { fieldManager: 'ctl' });
    expect(last()).toMatchObject({
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/demo/deployments/web/status',
      query: { fieldManager: 'ctl', force: 'false' },
      contentType: 'application/apply-patch+yaml',
      body: { apiVersion: 'apps/v1', kind: 'Deployment', status: { replicas: 1 } },
    });
  });

  it('refuses, without a request, what the server or client-go would refuse', async () => {
    const sent = recorder.requests.length;
    const cms = kube.resource('configmaps', 'demo');
    await expect(cms.apply(configMap({}), { fieldManager: '' })).rejects.toThrow(/needs a fieldManager/);
    await expect(cms.apply({ data: {} }, { fieldManager: 'tool' })).rejects.toThrow(/metadata\.name/);
    expect(recorder.requests.length).toBe(sent);
  });

  it("a conflict is a StatusError carrying the server's Status, causes included", async () => {
    const err = await kube
      .resource('configmaps', 'demo')
      .apply(configMap({ key: 'mine' }, { metadata: { name: 'contested' } }), { fieldManager: 'b' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    const status = (err as StatusError).status;
    expect((err as StatusError).code).toBe(409);
    expect((err as StatusError).reason).toBe('Conflict');
    expect((err as StatusError).message).toBe('Apply failed with 1 conflict: conflict with "a": .data.key');
    expect(status.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.data.key' },
    ]);
  });
});

describe('apply against a watchmark server', () => {
  let server: RunningServer;
  let kube: KubeClient;
  beforeAll(async () => {
    const kubeconfig = join(tempDir(), 'kubeconfig');
    server = await startTestServer({ kubeconfigOut: kubeconfig });
    kube = await KubeClient.load({ kubeconfig, qps: 0 });
    await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
  });
  afterAll(async () => {
    await kube?.close();
    await server?.close();
  });

  it('creates the object, then updates it', async () => {
    const cms = kube.resource('configmaps', 'demo');
    const created = await cms.apply(configMap({ a: '1' }), { fieldManager: 'tool' });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.data).toEqual({ a: '1' });
    const updated = await cms.apply(configMap({ a: '2' }), { fieldManager: 'tool' });
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
    expect(updated.data).toEqual({ a: '2' });
    expect((await cms.get('settings')).data).toEqual({ a: '2' });
  });

  it('a dry run stores nothing, for a create or an update', async () => {
    const cms = kube.resource('configmaps', 'demo');
    const ghost = await cms.apply(configMap({ a: '1' }, { metadata: { name: 'ghost' } }), {
      fieldManager: 'tool',
      dryRun: true,
    });
    expect(ghost.data).toEqual({ a: '1' });
    expect(await cms.find('ghost')).toBeUndefined();
    const before = await cms.get('settings');
    const answered = await cms.apply(configMap({ a: 'dry' }), { fieldManager: 'tool', dryRun: true });
    expect(answered.data).toEqual({ a: 'dry' });
    const after = await cms.get('settings');
    expect(after.data).toEqual(before.data);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
  });

  it('a custom type by any of its names', async () => {
    await installCrd(server, widgetCrd());
    const widgets = kube.resource('wg', 'demo');
    const applied = await widgets.apply({ metadata: { name: 'w1' }, spec: { size: 3 } } as KubeObject, {
      fieldManager: 'tool',
    });
    expect(applied).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { size: 3 } });
    expect((await widgets.get('w1')).spec).toMatchObject({ size: 3 });
  });
});
