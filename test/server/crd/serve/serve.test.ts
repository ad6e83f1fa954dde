import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { conditionTrue, installCrd } from '../../../helpers/crds.js';
import { call, startTestServer, watch } from '../../../helpers/server.js';
import { waitUntil } from '../../../helpers/wait.js';
import { widgetCrd } from '../../../helpers/widget.js';
import { CRDS, WIDGETS, widget } from './serve-fixture.js';

let server: RunningServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('the CustomResourceDefinition API', () => {
  it('defaults, records the storage version, and becomes NamesAccepted and Established', async () => {
    const created = await call(server, 'POST', CRDS, { body: widgetCrd() });
    expect(created.status).toBe(201);
    expect(created.body.spec.conversion).toEqual({ strategy: 'None' });
    expect(created.body.spec.names.listKind).toBe('WidgetList');
    expect(created.body.status.storedVersions).toEqual(['v1']);
    expect(created.body.metadata.generation).toBe(1);
    let crd: any;
    await waitUntil(async () => {
      crd = (await call(server, 'GET', `${CRDS}/widgets.example.com`)).body;
      return conditionTrue(crd, 'Established');
    }, 'Established');
    expect(crd.status.acceptedNames).toEqual({
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wg'],
      kind: 'Widget',
      listKind: 'WidgetList',
      categories: ['all'],
    });
    const byType = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, c]));
    expect(byType.NamesAccepted).toMatchObject({
      status: 'True',
      reason: 'NoConflicts',
      message: 'no conflicts found',
    });
    expect(byType.Established).toMatchObject({
      status: 'True',
      reason: 'InitialNamesAccepted',
      message: 'the initial names have been accepted',
    });
  });

  it('refuses an invalid definition with 422 and the field paths kube-apiserver reports', async () => {
    const bad = widgetCrd();
    bad.spec.versions[0].storage = false;
    const res = await call(server, 'POST', CRDS, { body: bad });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toContain(
      'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid',
    );
    expect(res.body.details.causes.map((c: any) => c.field)).toContain('spec.versions');
  });

  it('refuses names another definition of the group holds: NamesAccepted=False, never served', async () => {
    await installCrd(server, widgetCrd());
    const rival = widgetCrd();
    rival.metadata.name = 'gadgets.example.com';
    rival.spec.names = { plural: 'gadgets', kind: 'Widget', shortNames: ['wg'] };
    expect((await call(server, 'POST', CRDS, { body: rival })).status).toBe(201);
    let crd: any;
    await waitUntil(async () => {
      crd = (await call(server, 'GET', `${CRDS}/gadgets.example.com`)).body;
      return (crd.status.conditions ?? []).some((c: any) => c.type === 'NamesAccepted');
    }, 'a NamesAccepted condition');
    const names = crd.status.conditions.find((c: any) => c.type === 'NamesAccepted');
    // The last conflict found names the reason (naming_controller.go `calculateNamesAndConditions`):
    // the kind conflicts, and so does the defaulted list kind, checked after it.
    expect(names).toMatchObject({
      status: 'False',
      reason: 'ListKindConflict',
      message: '"WidgetList" is already in use',
    });
    expect(conditionTrue(crd, 'Established')).toBe(false);
    expect((await call(server, 'GET', '/apis/example.com/v1/namespaces/default/gadgets')).status).toBe(404);
  });
});

describe('deleting a definition', () => {
  it('deletes its objects (DELETED events), ends the watches on the type, and stops serving it', async () => {
    await installCrd(server, widgetCrd());
    await call(server, 'POST', WIDGETS, { body: widget('a') });
    await call(server, 'POST', WIDGETS, { body: widget('b') });
    const w = await watch(server, `${WIDGETS}?watch=1&allowWatchBookmarks=true`);
    await w.until((e) => e.type === 'ADDED' && (e.object as any).metadata.name === 'b');
    const deleted = await call(server, 'DELETE', `${CRDS}/widgets.example.com`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(deleted.body.metadata.deletionTimestamp).toBeTruthy();
    await w.until((e) => e.type === 'DELETED' && (e.object as any).metadata.name === 'b');
    expect(
      w.events
        .filter((e) => e.type === 'DELETED')
        .map((e) => (e.object as any).metadata.name)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(await w.ended).toBe('clean');
    await waitUntil(
      async () => (await call(server, 'GET', `${CRDS}/widgets.example.com`)).status === 404,
      'the CRD to go',
    );
    expect((await call(server, 'GET', WIDGETS)).status).toBe(404);
  });

  it('waits for objects held by finalizers, refusing new objects meanwhile', async () => {
    await installCrd(server, widgetCrd());
    await call(server, 'POST', WIDGETS, {
      body: { ...widget('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    await call(server, 'DELETE', `${CRDS}/widgets.example.com`);
    await waitUntil(async () => {
      const crd = (await call(server, 'GET', `${CRDS}/widgets.example.com`)).body;
      return (crd.status.conditions ?? []).some(
        (c: any) => c.type === 'Terminating' && c.reason === 'InstanceDeletionInProgress',
      );
    }, 'Terminating=InstanceDeletionInProgress');
    const create = await call(server, 'POST', WIDGETS, { body: widget('late') });
    expect(create.status).toBe(405);
    expect(create.body.message).toBe('create not allowed while custom resource definition is terminating');
    const held = await call(server, 'GET', `${WIDGETS}/held`);
    expect(held.body.metadata.deletionTimestamp).toBeTruthy();
    await call(server, 'PATCH', `${WIDGETS}/held`, {
      body: { metadata: { finalizers: null } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    await waitUntil(
      async () => (await call(server, 'GET', `${CRDS}/widgets.example.com`)).status === 404,
      'the CRD to go',
    );
  });
});

describe('decoding a definition', () => {
  it("drops unknown fields of schemas under items and additionalProperties, as Go's lenient decode does", async () => {
    const crd = widgetCrd();
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    spec.properties.tags = {
      type: 'array',
      items: {
        type: 'string',
        bogus: true,
        'x-kubernetes-validations': [{ rule: 'self.size() < 9', extra: 1 }],
      },
    };
    spec.properties.labels = { type: 'object', additionalProperties: { type: 'string', alsoBogus: 1 } };
    const created = await call(server, 'POST', CRDS, { body: crd });
    expect(created.status, created.text).toBe(201);
    const stored = created.body.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(stored.tags.items).toEqual({
      type: 'string',
      'x-kubernetes-validations': [{ rule: 'self.size() < 9' }],
    });
    expect(stored.labels.additionalProperties).toEqual({ type: 'string' });
    // Nothing is said about them: the strict decoder never sees them.
    expect(created.headers.warning).toBeUndefined();
  });
});
