/**
 * REST over real HTTP, errors and non-resource paths: what kube-apiserver answers, Status bodies included
 * (fixture.ts holds what the REST suites share; watch rules live in ../watch-protocol/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { call, pod, startTestServer } from '../../../helpers/server.js';
import { expectStatus, JSON_PATCH, pods, restHelpers } from './fixture.js';

let s: RunningServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});
const { freshNamespace, created } = restHelpers(() => s);

describe('errors and non-resource paths', () => {
  it('answers 404 with a Status under a served API, as go-restful does, for an unknown version or kind', async () => {
    for (const path of [
      '/api/v2/pods',
      '/apis/apps/v9/deployments',
      '/api/v1/namespaces/default/widgets',
      '/api/v1/namespaces/default/pods/a/logs/extra',
    ]) {
      expectStatus(await call(s, 'GET', path), 404, 'NotFound');
    }
  });

  it("answers Go's plain 404 page where no API is served (an unknown group, an unknown path)", async () => {
    // The fidelity cases routing/unknown-group-resource and routing/unknown-top-level show the reference's.
    for (const path of ['/apis/nope.example.com/v1/things', '/apis/nope.example.com', '/nothing/here']) {
      const r = await call(s, 'GET', path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(r.text).toBe('404 page not found\n');
    }
  });

  it('answers 405 for a method the path does not take', async () => {
    const ns = await freshNamespace();
    expectStatus(await call(s, 'POST', `${pods(ns)}/a`, { body: pod('a') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'PUT', pods(ns), { body: pod('a') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'POST', '/version', { body: {} }), 405, 'MethodNotAllowed');
    // From the router, as kube-apiserver's serviceErrorHandler answers it: no resource named.
    const r = await call(s, 'POST', `${pods(ns)}/a`, { body: pod('a') });
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });

  it('a name under the all-namespaces path of a namespaced kind matches no route', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/pods/a'],
      ['DELETE', '/api/v1/pods/a'],
      ['GET', '/api/v1/pods/a/status'],
      ['GET', '/apis/apps/v1/deployments/d'],
    ] as const) {
      const r = await call(s, method, path);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.message).toBe('the server could not find the requested resource');
      expect(r.body.details).toEqual({});
    }
  });

  it('watch=1 on one object is a plain GET (kubernetes/kubernetes#89755); /watch/ paths watch it', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('one'));
    const got = await call(s, 'GET', `${pods(ns)}/one?watch=1`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.kind).toBe('Pod');
    expect(got.body.metadata.name).toBe('one');
  });

  it('serves only reads on /watch/ paths and on the all-namespaces path of a namespaced kind', async () => {
    const ns = await freshNamespace();
    await created(pods(ns), pod('a'));
    expectStatus(await call(s, 'POST', '/api/v1/pods', { body: pod('b') }), 405, 'MethodNotAllowed');
    expectStatus(await call(s, 'DELETE', '/api/v1/pods'), 405, 'MethodNotAllowed');
    expectStatus(
      await call(s, 'POST', `/api/v1/watch/namespaces/${ns}/pods`, { body: pod('c') }),
      405,
      'MethodNotAllowed',
    );
    expectStatus(await call(s, 'DELETE', `/api/v1/watch/namespaces/${ns}/pods/a`), 405, 'MethodNotAllowed');
    expect((await call(s, 'GET', pods(ns))).body.items.map((i: any) => i.metadata.name)).toEqual(['a']);
    // watch=1 on a subresource is a plain read.
    const status = await call(s, 'GET', `${pods(ns)}/a/status?watch=1`);
    expect(status.status, status.text).toBe(200);
    expect(status.body.kind).toBe('Pod');
  });

  it('answers 400, not 500, for bodies nested deeper than the server can process', async () => {
    const ns = await freshNamespace();
    const deep = (d: number) =>
      `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'['.repeat(d)}${']'.repeat(d)}}`;
    for (const depth of [1_000, 5_000, 100_000]) {
      const r = await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: deep(depth) });
      expectStatus(r, 400, 'BadRequest');
      expect(r.body.message).toContain('nested too deeply');
    }
    for (const yaml of [`x: ${'['.repeat(50_000)}`, `${'- '.repeat(50_000)}1`]) {
      const r = await call(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: yaml,
        headers: { 'content-type': 'application/yaml' },
      });
      expectStatus(r, 400, 'BadRequest');
    }
    await created(pods(ns), pod('p'));
    const path = `/spec/x${'/a'.repeat(600)}`;
    const patch = await call(s, 'PATCH', `${pods(ns)}/p`, {
      body: [
        { op: 'add', path: '/spec/x', value: JSON.parse(`${'{"a":'.repeat(600)}1${'}'.repeat(600)}`) },
        { op: 'replace', path, value: JSON.parse(`${'['.repeat(600)}${']'.repeat(600)}`) },
      ],
      headers: JSON_PATCH,
    });
    expectStatus(patch, 400, 'BadRequest');
    expect((await call(s, 'GET', '/healthz')).status).toBe(200);
  });

  it('answers 413 for a body over 3 MiB', async () => {
    const ns = await freshNamespace();
    const big = pod('big');
    (big.metadata as Record<string, unknown>).annotations = { blob: 'x'.repeat(3 * 1024 * 1024 + 10) };
    expectStatus(await call(s, 'POST', pods(ns), { body: big }), 413, 'RequestEntityTooLarge');
    expect((await call(s, 'GET', '/healthz')).status).toBe(200);
  });

  it('serves Prometheus metrics with watchmark_ figures', async () => {
    const r = await call(s, 'GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.text).toMatch(/^# HELP watchmark_/m);
    expect(r.text).toMatch(/^watchmark_lists_total\{mode="consistent"\} \d+$/m);
  });
});
