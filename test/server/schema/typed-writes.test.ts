/**
 * The typed-object check over real HTTP: what each write path answers for a value of the wrong
 * type and for unknown fields under each `fieldValidation`, in kube-apiserver's words
 * (k8s.io/apiserver handlers create.go, update.go, patch.go; see src/server/schema/write-rules.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

const NS = 'typed';
const cms = `/api/v1/namespaces/${NS}/configmaps`;
const deployments = `/apis/apps/v1/namespaces/${NS}/deployments`;

function deployment(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
      },
      ...extra,
    },
  };
}

/** The `Warning` header values of an answer, as a list. */
function warnings(headers: Record<string, string | string[] | undefined>): string[] {
  const raw = headers.warning;
  if (raw === undefined) return [];
  // Node joins repeated headers with ', '; each value starts with the 299 code.
  return (Array.isArray(raw) ? raw : raw.split(/, (?=299 )/)).map((w) => w.trim());
}

describe('typed writes', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer();
    await ensureNamespace(s, NS);
  });
  afterAll(() => s.close());

  describe('the three examples of the issue', () => {
    it('a ConfigMap whose data value is an object is a 400, and nothing is stored', async () => {
      const r = await call(s, 'POST', cms, { body: { metadata: { name: 'obj' }, data: { a: { b: 1 } } } });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe('BadRequest');
      expect(r.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ConfigMap.data of type string',
      );
      expect((await call(s, 'GET', `${cms}/obj`)).status).toBe(404);
    });

    it('a numeric label value is a 400', async () => {
      const r = await call(s, 'POST', cms, { body: { metadata: { name: 'num', labels: { tier: 1 } } } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
      );
    });

    it('a Deployment with replicas "three" is a 400', async () => {
      const r = await call(s, 'POST', deployments, { body: deployment('three', { replicas: 'three' }) });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
      );
    });
  });

  describe('fieldValidation', () => {
    const body = (name: string) => ({
      metadata: { name, bogus: true },
      data: { a: 'b' },
      extra: 1,
    });

    it('Warn (the default) drops unknown fields and names each in a Warning header', async () => {
      const r = await call(s, 'POST', cms, { body: body('warned') });
      expect(r.status).toBe(201);
      expect(warnings(r.headers)).toEqual([
        '299 - "unknown field \\"metadata.bogus\\""',
        '299 - "unknown field \\"extra\\""',
      ]);
      const stored = (await call(s, 'GET', `${cms}/warned`)).body;
      expect(stored.extra).toBeUndefined();
      expect(stored.metadata.bogus).toBeUndefined();
      expect(stored.data).toEqual({ a: 'b' });
    });

    it('past 4 KiB of warnings, each is cut to 256 characters and the rest dropped, as the recorder does', async () => {
      const long = (i: number) => `f${i}${'x'.repeat(300)}`;
      const extra = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [long(i), 1]));
      const r = await call(s, 'POST', cms, { body: { metadata: { name: 'many' }, ...extra } });
      expect(r.status).toBe(201);
      const texts = warnings(r.headers).map((w) => w.replace(/^299 - "(.*)"$/, '$1').replace(/\\"/g, '"'));
      // 13 warnings overflow 4 KiB; cut to 256 characters, 16 fit, the last 4 are dropped.
      expect(texts).toHaveLength(16);
      for (const [i, text] of texts.entries()) {
        expect(text).toBe(`unknown field "${long(i)}"`.slice(0, 256));
      }
    });

    it('Ignore drops them silently', async () => {
      const r = await call(s, 'POST', `${cms}?fieldValidation=Ignore`, { body: body('ignored') });
      expect(r.status).toBe(201);
      expect(r.headers.warning).toBeUndefined();
      expect(r.body.extra).toBeUndefined();
    });

    it('Strict refuses the write, listing every unknown field with its full path', async () => {
      const pod = {
        metadata: { name: 'strict' },
        spec: { containers: [{ name: 'c', image: 'i', imagePolicy: 'x' }], bogus: {} },
      };
      const r = await call(s, 'POST', `/api/v1/namespaces/${NS}/pods?fieldValidation=Strict`, { body: pod });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagePolicy", unknown field "spec.bogus"',
      );
    });

    it('a type error wins over unknown fields, even under Strict', async () => {
      const r = await call(s, 'POST', `${cms}?fieldValidation=Strict`, {
        body: { metadata: { name: 'both' }, bogus: 1, data: { a: 1 } },
      });
      expect(r.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
      );
    });

    it('an unsupported value is refused as the options validation does (422)', async () => {
      const r = await call(s, 'POST', `${cms}?fieldValidation=Loud`, {
        body: { metadata: { name: 'loud' } },
      });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(
        'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"',
      );
      expect(r.body.details).toMatchObject({ group: 'meta.k8s.io', kind: 'CreateOptions' });
    });

    it('an update drops and warns the same way, and Strict refuses it', async () => {
      await call(s, 'POST', cms, { body: { metadata: { name: 'upd' }, data: { a: 'b' } } });
      const warned = await call(s, 'PUT', `${cms}/upd`, {
        body: { metadata: { name: 'upd' }, data: { a: 'c' }, extra: 1 },
      });
      expect(warned.status).toBe(200);
      expect(warnings(warned.headers)).toEqual(['299 - "unknown field \\"extra\\""']);
      expect(warned.body.extra).toBeUndefined();
      const strict = await call(s, 'PUT', `${cms}/upd?fieldValidation=Strict`, {
        body: { metadata: { name: 'upd' }, extra: 1 },
      });
      expect(strict.status).toBe(400);
      expect(strict.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"',
      );
    });
  });

  describe('values Go decodes its own way', () => {
    const create = (body: unknown) => call(s, 'POST', cms, { body });

    it('null is taken anywhere: a null field is left out, a null map value is its zero value', async () => {
      const r = await create({
        metadata: { name: 'nulls', labels: null, annotations: { a: null } },
        data: null,
      });
      expect(r.status).toBe(201);
      expect(r.body.metadata.labels).toBeUndefined();
      expect(r.body.metadata.annotations).toEqual({ a: '' });
      expect('data' in r.body).toBe(false);
    });

    it('binaryData must be standard base64; a list of bytes is taken and stored as base64', async () => {
      const bad = await create({ metadata: { name: 'b64' }, binaryData: { k: 'YWJj\nZA=x' } });
      expect(bad.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 7',
      );
      const list = await create({ metadata: { name: 'bytes' }, binaryData: { k: [104, 105] } });
      expect(list.status).toBe(201);
      expect(list.body.binaryData).toEqual({ k: 'aGk=' });
      const big = await create({ metadata: { name: 'bytes2' }, binaryData: { k: [256] } });
      expect(big.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number 256 into Go struct field ConfigMap.binaryData of type uint8',
      );
    });

    it('an int32 out of range or with a fraction is refused with its literal', async () => {
      const big = await call(s, 'POST', deployments, { body: deployment('big', { replicas: 2 ** 31 }) });
      expect(big.body.message).toContain(
        'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32',
      );
      const half = await call(s, 'POST', deployments, { body: deployment('half', { minReadySeconds: 1.5 }) });
      expect(half.body.message).toContain(
        'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.minReadySeconds of type int32',
      );
    });

    it('an UnmarshalJSON error ends the decode at once and wins over an earlier type error', async () => {
      // Go saves the first type error (labels) and decodes on; Time's parser then fails, and
      // that error is returned instead.
      const r = await create({
        metadata: { name: 'order', labels: { a: 1 }, creationTimestamp: '2024-02-30T00:00:00Z' },
      });
      expect(r.body.message).toBe(
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: parsing time "2024-02-30T00:00:00Z": day out of range',
      );
    });

    it('quantities and int-or-strings answer with their parsers’ words', async () => {
      const pods = `/api/v1/namespaces/${NS}/pods`;
      const container = (extra: Record<string, unknown>) => ({
        metadata: { name: 'q' },
        spec: { containers: [{ name: 'c', image: 'i', ...extra }] },
      });
      const quantity = await call(s, 'POST', pods, {
        body: container({ resources: { limits: { cpu: '1 core' } } }),
      });
      expect(quantity.body.message).toBe(
        'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      );
      const suffix = await call(s, 'POST', pods, {
        body: container({ resources: { limits: { cpu: '1Qi' } } }),
      });
      expect(suffix.body.message).toBe(
        'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      );
      const unit = await call(s, 'POST', pods, {
        body: container({ resources: { limits: { cpu: '1ki' } } }),
      });
      expect(unit.body.message).toBe(
        `Pod in version "v1" cannot be handled as a Pod: unable to parse quantity's suffix`,
      );
      const port = await call(s, 'POST', pods, {
        body: container({ livenessProbe: { httpGet: { port: true } } }),
      });
      expect(port.body.message).toBe(
        // kube-apiserver 1.37's words: the nested int32 decode's error gets the struct field, and
        // the path names the embedded ProbeHandler.
        'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.ProbeHandler.httpGet.port of type int32',
      );
    });

    it('a non-string apiVersion fails where the serializer reads the GVK', async () => {
      const r = await create({ apiVersion: 1, metadata: { name: 'gvk' } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({"apiVersion":1,"metadata":{"n ...)',
      );
    });
  });

  describe('patches', () => {
    beforeAll(async () => {
      const r = await call(s, 'POST', deployments, { body: deployment('p') });
      expect(r.status).toBe(201);
    });
    const patch = (type: string, body: unknown, query = '') =>
      call(s, 'PATCH', `${deployments}/p${query}`, { body, headers: { 'content-type': type } });

    it('a merge patch result of the wrong type is a 422 about the patch, with the decoder’s words', async () => {
      const r = await patch('application/merge-patch+json', { spec: { replicas: 'three' } });
      expect(r.status).toBe(422);
      expect(r.body.reason).toBe('Invalid');
      expect(r.body.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{\\"/);
      expect(r.body.message).toMatch(
        /: json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/,
      );
      expect(r.body.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'patch' });
    });

    it('a JSON patch result is decoded the same way', async () => {
      const r = await patch('application/json-patch+json', [
        { op: 'add', path: '/spec/paused', value: 'yes' },
      ]);
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(
        /json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.paused of type bool$/,
      );
    });

    it('a strategic merge patch result goes through the converter: its words, the patch as %+v', async () => {
      const r = await patch('application/strategic-merge-patch+json', { spec: { replicas: 'three' } });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(
        ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:three]]": unrecognized type: int32',
      );
      const labels = await patch('application/strategic-merge-patch+json', {
        metadata: { labels: { a: 1 } },
      });
      expect(labels.body.message).toBe(
        ' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:1]]]": cannot convert int64 to string',
      );
    });

    it('unknown fields of a patch: warned (Warn), dropped (every mode), a 422 under Strict', async () => {
      const warned = await patch('application/merge-patch+json', { spec: { bogus: 1 } });
      expect(warned.status).toBe(200);
      expect(warnings(warned.headers)).toEqual(['299 - "unknown field \\"spec.bogus\\""']);
      expect(warned.body.spec.bogus).toBeUndefined();
      const strict = await patch(
        'application/strategic-merge-patch+json',
        { spec: { zz: 1, aa: 2 } },
        '?fieldValidation=Strict',
      );
      expect(strict.status).toBe(422);
      // The converter sorts its strict errors.
      expect(strict.body.message).toBe(
        ' "" is invalid: patch: Invalid value: "map[spec:map[aa:2 zz:1]]": strict decoding error: unknown field "spec.aa", unknown field "spec.zz"',
      );
      const ignored = await patch(
        'application/merge-patch+json',
        { spec: { bogus: 1 } },
        '?fieldValidation=Ignore',
      );
      expect(ignored.status).toBe(200);
      expect(ignored.headers.warning).toBeUndefined();
    });

    it('the scale subresource decodes an autoscaling/v1 Scale', async () => {
      const put = await call(s, 'PUT', `${deployments}/p/scale`, {
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'p' },
          spec: { replicas: '2' },
        },
      });
      expect(put.status).toBe(400);
      expect(put.body.message).toBe(
        'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
      );
      const merged = await patch('application/merge-patch+json', { spec: { replicas: 3 } }, '');
      expect(merged.status).toBe(200);
      const scale = await call(s, 'PATCH', `${deployments}/p/scale`, {
        body: { spec: { replicas: 'x' } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(scale.status).toBe(422);
      expect(scale.body.message).toMatch(/Go struct field ScaleSpec\.spec\.replicas of type int32$/);
    });

    describe('server-side apply', () => {
      const apply = (yaml: string, query = '') =>
        call(s, 'PATCH', `${deployments}/p?fieldManager=test${query}`, {
          body: yaml,
          headers: { 'content-type': 'application/apply-patch+yaml' },
        });
      const head = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: p\n  namespace: typed\n';

      it('types the configuration as structured-merge-diff does: every error, unknown fields always', async () => {
        const r = await apply(`${head}spec:\n  replicas: three\n  bogus: 1\n`, '&fieldValidation=Ignore');
        expect(r.status).toBe(500);
        expect(r.body.reason).toBeUndefined();
        expect(r.body.message).toBe(
          'failed to create typed patch object (typed/p; apps/v1, Kind=Deployment): errors:\n  .spec.replicas: expected numeric (int or float), got string\n  .spec.bogus: field not declared in schema',
        );
        const one = await apply(`${head}spec:\n  paused: 1\n`);
        expect(one.body.message).toBe(
          'failed to create typed patch object (typed/p; apps/v1, Kind=Deployment): .spec.paused: expected boolean, got &{1}',
        );
        const str = await apply(`${head}  labels:\n    a: [1]\n`);
        expect(str.body.message).toBe(
          'failed to create typed patch object (typed/p; apps/v1, Kind=Deployment): .metadata.labels.a: expected string, got &value.valueUnstructured{Value:[]interface {}{1}}',
        );
      });

      // An earlier merge patch by another manager owns spec.replicas: without force these applies
      // would be 409 conflicts, which structuredmerge.go `Apply` reports before converting back.
      it('what only the Go type refuses fails converting the merged object back', async () => {
        const r = await apply(`${head}spec:\n  replicas: 1.5\n`, '&force=true');
        expect(r.status).toBe(500);
        expect(r.body.message).toBe(
          'failed to convert new object (typed/p; apps/v1, Kind=Deployment) to proper version: unable to convert unstructured object to apps/v1, Kind=Deployment: cannot convert float64 to int32',
        );
      });

      it('a well-typed configuration applies', async () => {
        const r = await apply(`${head}spec:\n  replicas: 2\n`, '&force=true');
        expect(r.status).toBe(200);
        expect(r.body.spec.replicas).toBe(2);
      });
    });
  });
});
