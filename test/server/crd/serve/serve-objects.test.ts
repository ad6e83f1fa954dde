import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { installCrd } from '../../../helpers/crds.js';
import { call, startTestServer } from '../../../helpers/server.js';
import { widgetCrd } from '../../../helpers/widget.js';
import { WIDGETS, widget } from './serve-fixture.js';

let server: RunningServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
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
