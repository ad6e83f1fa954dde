/**
 * Admission webhooks configured by ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration objects, called over real HTTPS (a webhook server in the test):
 * the AdmissionReview they get, denials, patches in order, failurePolicy with a dead URL,
 * timeouts, namespace and object selectors, rules, Service references, dry runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call } from '../../helpers/server.js';
import type { TestWebhook } from './webhook-server.js';
import {
  configMap,
  configureOn,
  MUTATING,
  useWebhookSuite,
  VALIDATING,
  webhookEntry,
} from './webhooks-fixture.js';

const suite = useWebhookSuite();
let s: RunningServer;
let hook: TestWebhook;
beforeAll(() => {
  ({ s, hook } = suite);
});
const webhook = (name: string, extra: Record<string, unknown> = {}) => webhookEntry(hook, name, extra);
const configure = (path: string, name: string, webhooks: unknown[]) =>
  configureOn(suite, path, name, webhooks);
let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

describe('admission webhooks', () => {
  it('a validating webhook gets an AdmissionReview v1 over HTTPS and its denial reaches the client', async () => {
    expect((await configure(VALIDATING, 'deny', [webhook('deny.example.com')])).status).toBe(201);
    hook.behaviour = (r) =>
      r.name === 'refused'
        ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'no thanks' } }
        : { allowed: true };
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap('refused') });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'admission webhook "deny.example.com" denied the request: no thanks',
    });
    expect((await call(s, 'GET', '/api/v1/namespaces/prod/configmaps/refused')).status).toBe(404);
    expect(hook.received).toHaveLength(1);
    const got = hook.received[0]!;
    expect(got.url).toBe('/admit?timeout=10s');
    expect(got.contentType).toBe('application/json');
    expect(got.review).toMatchObject({
      kind: 'AdmissionReview',
      apiVersion: 'admission.k8s.io/v1',
      request: {
        kind: { group: '', version: 'v1', kind: 'ConfigMap' },
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        name: 'refused',
        namespace: 'prod',
        operation: 'CREATE',
        object: { metadata: { name: 'refused', namespace: 'prod' } },
        oldObject: null,
        dryRun: false,
        options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      },
    });
  });

  it('mutating webhooks run in configuration-name order, each seeing the patches before it', async () => {
    const second = webhook('second.example.com', {
      clientConfig: { url: `${hook.base}/second`, caBundle: hook.caBundle },
    });
    const first = webhook('first.example.com', {
      clientConfig: { url: `${hook.base}/first`, caBundle: hook.caBundle },
    });
    expect((await configure(MUTATING, 'b-second', [second])).status).toBe(201);
    expect((await configure(MUTATING, 'a-first', [first])).status).toBe(201);
    hook.behaviour = (r) => {
      const labels = (r.object?.metadata?.labels ?? {}) as Record<string, string>;
      return labels.order === undefined
        ? { allowed: true, patch: [{ op: 'add', path: '/metadata/labels', value: { order: 'first' } }] }
        : {
            allowed: true,
            patch: [{ op: 'replace', path: '/metadata/labels/order', value: `${labels.order}.second` }],
          };
    };
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', {
      body: configMap(fresh('mutated')),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.labels).toEqual({ order: 'first.second' });
    expect(hook.received.map((x) => x.url)).toEqual(['/first?timeout=10s', '/second?timeout=10s']);
  });

  it("what a webhook adds on update belongs to no field manager, and it sees the write's managedFields", async () => {
    expect((await configure(MUTATING, 'owned', [webhook('owned.example.com')])).status).toBe(201);
    const name = fresh('owned');
    const path = `/api/v1/namespaces/prod/configmaps/${name}`;
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(name) })).status,
    ).toBe(201);
    hook.behaviour = () => ({
      allowed: true,
      patch: [{ op: 'add', path: '/metadata/annotations', value: { added: 'by-webhook' } }],
    });
    const r = await call(s, 'PUT', `${path}?fieldManager=editor`, {
      body: { ...configMap(name), data: { a: '2' } },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.metadata.annotations).toEqual({ added: 'by-webhook' });
    // update.go runs the field manager before mutating admission (checked against kube-apiserver
    // by test/fidelity's admission/review/update case).
    const editor = r.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'editor');
    expect(editor.fieldsV1).toEqual({ 'f:data': { 'f:a': {} } });
    const seen = hook.received.at(-1)!.review.request.object as { metadata: { managedFields: unknown[] } };
    expect(seen.metadata.managedFields).toEqual(r.body.metadata.managedFields);
  });

  it("an answer that is not a review fails the call in client-go's decoder's words", async () => {
    const url = `${hook.base}/text`;
    expect(
      (
        await configure(MUTATING, 'text', [
          webhook('text.example.com', { clientConfig: { url, caBundle: hook.caBundle } }),
        ])
      ).status,
    ).toBe(201);
    hook.behaviour = () => 'text';
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('text')) });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "text.example.com": failed to call webhook: ' +
        "couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type " +
        'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
  });

  it('reinvocationPolicy IfNeeded calls a webhook again when a later one changed the object', async () => {
    const at = (path: string, extra: Record<string, unknown> = {}) => ({
      clientConfig: { url: `${hook.base}/${path}`, caBundle: hook.caBundle },
      ...extra,
    });
    expect(
      (
        await configure(MUTATING, 'a-first', [
          webhook('first.example.com', at('first', { reinvocationPolicy: 'IfNeeded' })),
        ])
      ).status,
    ).toBe(201);
    expect(
      (await configure(MUTATING, 'b-second', [webhook('second.example.com', at('second'))])).status,
    ).toBe(201);
    hook.behaviour = (r) => {
      const labels = (r.object?.metadata?.labels ?? {}) as Record<string, string>;
      if (labels.a === undefined)
        return { allowed: true, patch: [{ op: 'add', path: '/metadata/labels', value: { a: '1' } }] };
      if (labels.b === undefined)
        return { allowed: true, patch: [{ op: 'add', path: '/metadata/labels/b', value: '1' }] };
      return { allowed: true };
    };
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', {
      body: configMap(fresh('reinvoked')),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.metadata.labels).toEqual({ a: '1', b: '1' });
    expect(hook.received.map((x) => x.url)).toEqual([
      '/first?timeout=10s',
      '/second?timeout=10s',
      '/first?timeout=10s',
    ]);
    expect(hook.received[2]!.review.request.object?.metadata?.labels).toEqual({ a: '1', b: '1' });
  });

  it('warnings from a webhook reach the Warning header', async () => {
    expect((await configure(VALIDATING, 'warn', [webhook('warn.example.com')])).status).toBe(201);
    hook.behaviour = () => ({ allowed: true, warnings: ['deprecated label'] });
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('warn')) });
    expect(r.status).toBe(201);
    expect(r.headers.warning).toBe('299 - "deprecated label"');
  });
});
