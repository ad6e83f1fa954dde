import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { conditionTrue, installCrd } from '../../../helpers/crds.js';
import { call, startTestServer, watch } from '../../../helpers/server.js';
import { waitUntil } from '../../../helpers/wait.js';
import { widget as makeWidget, widgetCrd } from '../../../helpers/widget.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

let server: RunningServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

/** This file's widgets are of size 2 unless a test says otherwise. */
const widget = (name: string, spec: Record<string, unknown> = { size: 2 }) => makeWidget(name, spec);

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

describe('custom objects', () => {
  beforeEach(async () => {
    await installCrd(server, widgetCrd());
  });

  it('are created with defaults and generation 1, and read back', async () => {
    const created = await call(server, 'POST', WIDGETS, { body: widget('a') });
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ size: 2, color: 'red' });
    expect(created.body.metadata.generation).toBe(1);
    expect(created.body.metadata.uid).toBeTruthy();
    const got = await call(server, 'GET', `${WIDGETS}/a`);
    expect(got.body.spec.color).toBe('red');
    const list = await call(server, 'GET', WIDGETS);
    expect(list.body.kind).toBe('WidgetList');
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['a']);
  });

  it("fail schema validation with 422 and kube-apiserver's words", async () => {
    const res = await call(server, 'POST', WIDGETS, { body: widget('a', { size: 0 }) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Widget.example.com "a" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    );
    const missing = await call(server, 'POST', WIDGETS, { body: widget('b', {}) });
    expect(missing.body.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.size' },
    ]);
  });

  it('prune unknown fields: Warn (the default) warns, Ignore is silent, Strict refuses', async () => {
    const warned = await call(server, 'POST', WIDGETS, { body: widget('a', { size: 1, extra: true }) });
    expect(warned.status).toBe(201);
    expect(warned.body.spec).toEqual({ size: 1, color: 'red' });
    expect(warned.headers.warning).toBe('299 - "unknown field \\"spec.extra\\""');
    const ignored = await call(server, 'POST', `${WIDGETS}?fieldValidation=Ignore`, {
      body: widget('b', { size: 1, extra: true }),
    });
    expect(ignored.status).toBe(201);
    expect(ignored.headers.warning).toBeUndefined();
    const strict = await call(server, 'POST', `${WIDGETS}?fieldValidation=Strict`, {
      body: widget('c', { size: 1, extra: true }),
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra"',
    );
  });

  it('keep status out of main writes and spec out of /status; only spec changes bump the generation', async () => {
    const created = await call(server, 'POST', WIDGETS, {
      body: { ...widget('a'), status: { replicas: 9 } },
    });
    expect(created.body.status).toBeUndefined();
    const status = await call(server, 'PUT', `${WIDGETS}/a/status`, {
      body: { ...created.body, spec: { size: 50 }, status: { replicas: 3 } },
    });
    expect(status.status).toBe(200);
    expect(status.body.spec.size).toBe(2);
    expect(status.body.status).toEqual({ replicas: 3 });
    expect(status.body.metadata.generation).toBe(1);
    const main = await call(server, 'PUT', `${WIDGETS}/a`, {
      body: { ...status.body, spec: { size: 5 }, status: { replicas: 0 } },
    });
    expect(main.body.status).toEqual({ replicas: 3 });
    expect(main.body.metadata.generation).toBe(2);
    const labelsOnly = await call(server, 'PUT', `${WIDGETS}/a`, {
      body: { ...main.body, metadata: { ...main.body.metadata, labels: { a: 'b' } } },
    });
    expect(labelsOnly.body.metadata.generation).toBe(2);
  });

  it('take JSON and merge patches; a strategic merge patch is 415', async () => {
    await call(server, 'POST', WIDGETS, { body: widget('a') });
    const merged = await call(server, 'PATCH', `${WIDGETS}/a`, {
      body: { spec: { size: 7 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(merged.body.spec.size).toBe(7);
    const strategic = await call(server, 'PATCH', `${WIDGETS}/a`, {
      body: { spec: { size: 8 } },
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
    });
    expect(strategic.status).toBe(415);
    expect(strategic.body.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  it("scale through /scale at the definition's paths", async () => {
    await call(server, 'POST', WIDGETS, { body: widget('a', { size: 1, replicas: 2 }) });
    const scale = await call(server, 'GET', `${WIDGETS}/a/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      // ScaleStatus.selector is omitempty (kube-apiserver 1.37 writes no empty selector).
      status: { replicas: 0 },
    });
    expect(scale.body.status.selector).toBeUndefined();
    const scaled = await call(server, 'PATCH', `${WIDGETS}/a/scale`, {
      body: { spec: { replicas: 5 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(scaled.body.spec.replicas).toBe(5);
    expect((await call(server, 'GET', `${WIDGETS}/a`)).body.spec.replicas).toBe(5);
  });

  it("print the definition's columns in a Table, priority columns for -o wide", async () => {
    await call(server, 'POST', WIDGETS, { body: widget('a', { size: 3, color: 'blue' }) });
    const table = await call(server, 'GET', WIDGETS, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.body.columnDefinitions.map((c: any) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Size', 0],
      ['Color', 1],
      ['Age', 0],
    ]);
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['a', 3, 'blue']);
  });

  it('select on a selectable field', async () => {
    await call(server, 'POST', WIDGETS, { body: widget('a', { size: 1, color: 'blue' }) });
    await call(server, 'POST', WIDGETS, { body: widget('b', { size: 1, color: 'green' }) });
    const blue = await call(server, 'GET', `${WIDGETS}?fieldSelector=spec.color%3Dblue`);
    expect(blue.body.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    const bad = await call(server, 'GET', `${WIDGETS}?fieldSelector=spec.size%3D1`);
    expect(bad.status).toBe(400);
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

describe('several versions', () => {
  const twoVersions = (strategy: 'None' | 'Webhook') => {
    const crd = widgetCrd();
    const v1 = crd.spec.versions[0];
    crd.spec.versions = [{ ...structuredClone(v1), name: 'v1beta1', storage: false }, v1];
    if (strategy === 'Webhook') {
      crd.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { service: { namespace: 'default', name: 'convert', path: '/convert' } },
        },
      };
    }
    return crd;
  };

  it('serves each version with strategy None: apiVersion rewritten, objects kept in the storage version', async () => {
    await installCrd(server, twoVersions('None'));
    const old = '/apis/example.com/v1beta1/namespaces/default/widgets';
    const created = await call(server, 'POST', old, {
      body: makeWidget('a', { size: 1 }, { version: 'v1beta1' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1beta1');
    expect((await call(server, 'GET', `${WIDGETS}/a`)).body.apiVersion).toBe('example.com/v1');
    expect((await call(server, 'GET', `${old}/a`)).body.apiVersion).toBe('example.com/v1beta1');
    const stored = await server.store.get('/example.com/widgets/default/a');
    expect(JSON.parse(stored!.value).apiVersion).toBe('example.com/v1');
    const w = await watch(server, `${old}?watch=1&resourceVersion=${created.body.metadata.resourceVersion}`);
    await call(server, 'PATCH', `${WIDGETS}/a`, {
      body: { spec: { size: 4 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const modified = await w.until((e) => e.type === 'MODIFIED');
    expect((modified.object as any).apiVersion).toBe('example.com/v1beta1');
    expect((modified.object as any).spec.size).toBe(4);
    w.close();
  });

  it('with a Webhook strategy, serves the storage version and answers other versions with a clear error', async () => {
    await installCrd(server, twoVersions('Webhook'));
    expect((await call(server, 'POST', WIDGETS, { body: widget('a') })).status).toBe(201);
    const other = await call(server, 'GET', '/apis/example.com/v1beta1/namespaces/default/widgets/a');
    expect(other.status).toBe(500);
    expect(other.body.reason).toBe('InternalError');
    expect(other.body.message).toBe(
      'Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: watchmark does not call conversion webhooks; use the storage version example.com/v1',
    );
  });
});

describe('server-side apply on a custom type', () => {
  it('creates and updates through apply, refusing fields the schema does not declare', async () => {
    await installCrd(server, widgetCrd());
    const apply = (body: unknown) =>
      call(server, 'PATCH', `${WIDGETS}/applied?fieldManager=test`, {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
    const created = await apply(widget('applied', { size: 2 }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec).toEqual({ size: 2, color: 'red' });
    const updated = await apply(widget('applied', { size: 3, color: 'green' }));
    expect(updated.status).toBe(200);
    expect(updated.body.spec).toEqual({ size: 3, color: 'green' });
    expect(updated.body.metadata.generation).toBe(2);
    const unknown = await apply(widget('applied', { size: 3, bogus: 1 }));
    expect(unknown.status).toBe(500);
    expect(unknown.body.message).toBe(
      // The configuration names no namespace, and the message names the configuration's.
      'failed to create typed patch object (/applied; example.com/v1, Kind=Widget): .spec.bogus: field not declared in schema',
    );
  });
});

describe('CEL rules on a served type', () => {
  it('refuse a write that breaks a rule, with its message, on every path that writes', async () => {
    const crd = widgetCrd();
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
      {
        rule: '!has(self.replicas) || self.replicas <= self.size * 10',
        message: 'at most ten replicas per size',
      },
    ];
    await installCrd(server, crd);
    const refused = await call(server, 'POST', WIDGETS, { body: widget('a', { size: 1, replicas: 11 }) });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'Widget.example.com "a" is invalid: spec: Invalid value: at most ten replicas per size',
    );
    expect(
      (await call(server, 'POST', WIDGETS, { body: widget('a', { size: 1, replicas: 2 }) })).status,
    ).toBe(201);
    const scaled = await call(server, 'PATCH', `${WIDGETS}/a/scale`, {
      body: { spec: { replicas: 20 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(scaled.status).toBe(422);
    expect(scaled.body.message).toContain('at most ten replicas per size');
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
