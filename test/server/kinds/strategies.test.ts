/**
 * The per-kind strategy and admission effects kube-apiserver v1.37 shows (checked against it by
 * test/fidelity): a DaemonSet's template generation annotation, a new Node's not-ready taint and
 * zero-valued status, an Event's always-written fields, a pod's phase and delete mark, the
 * labels each status strategy keeps, and a generated Namespace's name label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer, watch } from '../../helpers/server.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
  await ensureNamespace(s, 'st');
});
afterAll(async () => {
  await s?.close();
});

const MERGE = { 'content-type': 'application/merge-patch+json' };
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';
const owned = (obj: any, manager: string, subresource?: string) =>
  obj.metadata.managedFields.find((m: any) => m.manager === manager && m.subresource === subresource)
    ?.fieldsV1;

function daemonSet(image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }] } },
    },
  };
}

describe('DaemonSet template generation', () => {
  const path = '/apis/apps/v1/namespaces/st/daemonsets';
  it('is 1 on create, kept by /status, bumped by a template change, absent from metadata views', async () => {
    const created = await call(s, 'POST', `${path}?fieldManager=me`, { body: daemonSet('a:1') });
    expect(created.status, created.text).toBe(201);
    expect(created.body.metadata.annotations).toEqual({ [TEMPLATE_GENERATION]: '1' });
    // The field manager saw the annotation as decoded ("0"), so the creator owns it.
    expect(owned(created.body, 'me')['f:metadata']).toEqual({
      'f:annotations': { '.': {}, [`f:${TEMPLATE_GENERATION}`]: {} },
    });

    // A /status write without the annotation keeps the stored value (and its labels change).
    const viaStatus = { ...daemonSet('a:1'), metadata: { name: 'agent', labels: { l: 'x' } } };
    const status = await call(s, 'PUT', `${path}/agent/status?fieldManager=kubelet`, { body: viaStatus });
    expect(status.status, status.text).toBe(200);
    expect(status.body.metadata.annotations).toEqual({ [TEMPLATE_GENERATION]: '1' });
    expect(status.body.metadata.labels).toEqual({ l: 'x' });

    // A client's own value is not taken on update; a template change adds one.
    const changed = daemonSet('a:2');
    (changed.metadata as any).annotations = { [TEMPLATE_GENERATION]: '7' };
    const updated = await call(s, 'PUT', `${path}/agent`, { body: changed });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata.annotations).toEqual({ [TEMPLATE_GENERATION]: '2' });
    expect(updated.body.metadata.generation).toBe(2);

    const metadataOnly = await call(s, 'GET', `${path}/agent`, {
      headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
    });
    expect(metadataOnly.body.kind).toBe('PartialObjectMetadata');
    expect(metadataOnly.body.metadata.annotations).toBeUndefined();
  });
});

describe('Node create', () => {
  it('gets the not-ready taint (TaintNodesByCondition) and the zero-valued status fields', async () => {
    const body = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'st-node' } };
    const created = await call(s, 'POST', '/api/v1/nodes', { body });
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual({
      taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
    });
    expect(created.body.status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } });
    expect(created.body.status.nodeInfo.kubeletVersion).toBe('');
    // Admission adds after the field manager ran: nobody owns the taint.
    expect(JSON.stringify(created.body.metadata.managedFields ?? [])).not.toContain('taints');
    // Only creates are tainted.
    const updated = await call(s, 'PUT', '/api/v1/nodes/st-node', { body });
    expect(updated.body.spec).toEqual({});
  });
});

describe('Event', () => {
  it('carries its non-omitempty fields at their zero values', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'st' },
      reason: 'R',
    };
    const created = await call(s, 'POST', '/api/v1/namespaces/st/events', { body });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
    const listed = await call(s, 'GET', '/api/v1/namespaces/st/events');
    expect(listed.body.items[0].eventTime).toBeNull();
  });
});

describe('Pod strategy', () => {
  const path = '/api/v1/namespaces/st/pods';
  it('starts Pending, but a status write keeps the phase it sent, none included', async () => {
    const created = await call(s, 'POST', path, { body: pod('phase') });
    expect(created.body.status.phase).toBe('Pending');
    const written = await call(s, 'PUT', `${path}/phase/status`, { body: { ...created.body, status: {} } });
    expect(written.status, written.text).toBe(200);
    expect(written.body.status.phase).toBeUndefined();
    expect(written.body.status.qosClass).toBe('BestEffort');
  });

  it('a delete writes the mark first: the answer and the watch show deletionTimestamp, grace 0', async () => {
    const created = await call(s, 'POST', path, { body: pod('gone') });
    const w = await watch(
      s,
      `${path}?watch=1&fieldSelector=metadata.name%3Dgone&resourceVersion=${created.body.metadata.resourceVersion}`,
    );
    try {
      const dry = await call(s, 'DELETE', `${path}/gone?dryRun=All`);
      expect(dry.body.metadata).toMatchObject({ deletionGracePeriodSeconds: 0 });
      expect(typeof dry.body.metadata.deletionTimestamp).toBe('string');
      const deleted = await call(s, 'DELETE', `${path}/gone`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.body.metadata).toMatchObject({ deletionGracePeriodSeconds: 0 });
      expect(typeof deleted.body.metadata.deletionTimestamp).toBe('string');
      const gone = await w.until((e) => e.type === 'DELETED');
      expect(w.events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
      expect(gone.object.metadata?.deletionGracePeriodSeconds).toBe(0);
    } finally {
      w.close();
    }
  });
});

describe('status strategies and labels', () => {
  it('a ReplicaSet keeps labels sent through /status; a Deployment resets them', async () => {
    const template = {
      metadata: { labels: { app: 'x' } },
      spec: { containers: [{ name: 'a', image: 'a:1' }] },
    };
    const spec = { selector: { matchLabels: { app: 'x' } }, template };
    for (const [plural, kind, kept] of [
      ['replicasets', 'ReplicaSet', true],
      ['deployments', 'Deployment', false],
    ] as const) {
      const path = `/apis/apps/v1/namespaces/st/${plural}`;
      const body = { apiVersion: 'apps/v1', kind, metadata: { name: 'lbl' }, spec };
      expect((await call(s, 'POST', path, { body })).status).toBe(201);
      const patched = await call(s, 'PATCH', `${path}/lbl/status`, {
        body: { metadata: { labels: { l: 'x' } } },
        headers: MERGE,
      });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.metadata.labels, kind).toEqual(kept ? { l: 'x' } : undefined);
    }
  });
});

describe('Namespace with generateName', () => {
  it('gets its name label after the field manager ran: no manager owns it', async () => {
    const created = await call(s, 'POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'gen-', labels: { a: 'b' } } },
    });
    expect(created.status, created.text).toBe(201);
    const name = created.body.metadata.name;
    expect(created.body.metadata.labels).toEqual({ a: 'b', 'kubernetes.io/metadata.name': name });
    expect(JSON.stringify(created.body.metadata.managedFields)).not.toContain('kubernetes.io/metadata.name');
  });
});
