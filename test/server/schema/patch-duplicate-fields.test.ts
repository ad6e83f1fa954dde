/**
 * Repeated keys of a patch body, of a custom resource's body and, among unknown fields, of a
 * built-in kind's body over real HTTP, under each `fieldValidation` (k8s.io/apiserver
 * handlers/patch.go `applyJSPatch`, `strategicPatchObject`; apiextensions-apiserver
 * customresource_handler.go `schemaCoercingDecoder`; sigs.k8s.io/json `UnmarshalStrict`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { widgetCrd } from '../../helpers/widget.js';

const NS = 'dup';
const cms = `/api/v1/namespaces/${NS}/configmaps`;
const widgets = `/apis/example.com/v1/namespaces/${NS}/widgets`;
const deployments = `/apis/apps/v1/namespaces/${NS}/deployments`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const STRATEGIC = { 'content-type': 'application/strategic-merge-patch+json' };

function warnings(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers.warning;
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : raw.split(/, (?=299 )/)).map((w) => w.trim());
}

describe('repeated keys', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
    await installCrd(s, widgetCrd());
    for (const name of ['warn', 'strict', 'ignore', 'smp', 'json'])
      await call(s, 'POST', cms, { body: { metadata: { name }, data: { k: 'v' } } });
  }, 30_000);
  afterAll(() => s.close());

  describe('in a merge patch', () => {
    const patch = '{"data":{"x":"1","x":"2"},"data":{"y":"3"}}';

    it('Warn: one warning per repeated path; the later value replaces the earlier one whole', async () => {
      const r = await call(s, 'PATCH', `${cms}/warn?fieldValidation=Warn`, { headers: MERGE, body: patch });
      expect(r.status).toBe(200);
      expect(warnings(r.headers)).toEqual([
        '299 - "duplicate field \\"data.x\\""',
        '299 - "duplicate field \\"data\\""',
      ]);
      expect(r.body.data).toEqual({ k: 'v', y: '3' });
    });

    it('Strict: a 422 quoting the patched object, nothing written', async () => {
      const r = await call(s, 'PATCH', `${cms}/strict?fieldValidation=Strict`, {
        headers: MERGE,
        body: patch,
      });
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(
        /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: duplicate field "data.x", duplicate field "data"$/,
      );
      expect((await call(s, 'GET', `${cms}/strict`)).body.data).toEqual({ k: 'v' });
    });

    it('Ignore: nothing said', async () => {
      const r = await call(s, 'PATCH', `${cms}/ignore?fieldValidation=Ignore`, {
        headers: MERGE,
        body: patch,
      });
      expect(r.status).toBe(200);
      expect(warnings(r.headers)).toEqual([]);
    });
  });

  it("a strategic merge patch's repeated keys come before the patched object's unknown fields", async () => {
    const r = await call(s, 'PATCH', `${cms}/smp?fieldValidation=Strict`, {
      headers: STRATEGIC,
      body: '{"data":{"a":"1","a":"2"},"bogus":1}',
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[bogus:1 data:map[a:2]]": strict decoding error: duplicate field "data.a", unknown field "bogus"',
    );
  });

  it("a JSON patch's repeated and unknown operation keys are worded as its own", async () => {
    const r = await call(s, 'PATCH', `${cms}/json`, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: '[{"op":"add","path":"/data/b","value":"1","op":"add","bogus":1}]',
    });
    expect(r.status).toBe(200);
    expect(warnings(r.headers)).toEqual([
      '299 - "json patch duplicate field \\"[0].op\\""',
      '299 - "json patch unknown field \\"[0].bogus\\""',
    ]);
  });

  describe("in a Deployment's body, among unknown fields", () => {
    // The body of the e2e test "[sig-api-machinery] FieldValidation should detect unknown and
    // duplicate fields of a typed object", its unknown field before its repeated key.
    const body = (name: string) =>
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}","labels":{"app":"nginx"}},"spec":{"unknownField":"foo","replicas":2,"replicas":3,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"name":"nginx","image":"nginx:latest"}]}}}}`;

    it('Strict: a 400 naming them in the order the decoder meets them', async () => {
      const r = await call(s, 'POST', `${deployments}?fieldValidation=Strict`, { body: body('d1') });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"',
      );
    });

    it('Warn: the warnings in that order too', async () => {
      const r = await call(s, 'POST', `${deployments}?fieldValidation=Warn`, { body: body('d2') });
      expect(r.status).toBe(201);
      expect(warnings(r.headers)).toEqual([
        '299 - "unknown field \\"spec.unknownField\\""',
        '299 - "duplicate field \\"spec.replicas\\""',
      ]);
      expect(r.body.spec.replicas).toBe(3);
    });
  });

  describe("in a Deployment's YAML body", () => {
    const yaml = (name: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  bogus: x\n  replicas: 2\n  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers: [{name: app, image: nginx}]\n`;
    const YAML = { 'content-type': 'application/yaml' };

    it("Strict: the YAML conversion's repeated keys first, one go-yaml error, then the decoder's", async () => {
      const r = await call(s, 'POST', `${deployments}?fieldValidation=Strict`, {
        headers: YAML,
        body: yaml('y1'),
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  line 8: key "replicas" already set in map, unknown field "spec.bogus"',
      );
    });

    it('Warn: a warning per repeated key, then the unknown fields; the later value kept', async () => {
      const r = await call(s, 'POST', `${deployments}?fieldValidation=Warn`, {
        headers: YAML,
        body: yaml('y2'),
      });
      expect(r.status).toBe(201);
      expect(warnings(r.headers)).toEqual([
        '299 - "line 8: key \\"replicas\\" already set in map"',
        '299 - "unknown field \\"spec.bogus\\""',
      ]);
      expect(r.body.spec.replicas).toBe(3);
    });
  });

  describe("in a custom resource's body", () => {
    const body = (name: string) =>
      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"size":1,"color":"blue"},"spec":{"size":2,"size":3}}`;

    it('Strict: a 400 naming them', async () => {
      const r = await call(s, 'POST', `${widgets}?fieldValidation=Strict`, { body: body('w1') });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec", duplicate field "spec.size"',
      );
    });

    it('Warn: warned, and decoded as a map decodes them (the later spec replaces the earlier)', async () => {
      const r = await call(s, 'POST', widgets, { body: body('w2') });
      expect(r.status).toBe(201);
      expect(warnings(r.headers)).toEqual([
        '299 - "duplicate field \\"spec\\""',
        '299 - "duplicate field \\"spec.size\\""',
      ]);
      // color is the schema's default, not the first spec's blue.
      expect(r.body.spec).toEqual({ size: 3, color: 'red' });
    });
  });
});
