/**
 * Admission webhooks configured by ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration objects, called over real HTTPS (a webhook server in the test):
 * the AdmissionReview they get, denials, patches in order, failurePolicy with a dead URL,
 * timeouts, namespace and object selectors, rules, Service references, dry runs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { type Answer, call, startTestServer } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';
import { startWebhook, type TestWebhook } from './webhook-server.js';

const GROUP = '/apis/admissionregistration.k8s.io/v1';
const VALIDATING = `${GROUP}/validatingwebhookconfigurations`;
const MUTATING = `${GROUP}/mutatingwebhookconfigurations`;

let s: RunningServer;
let hook: TestWebhook;
let deadUrl: string;
const configs: string[] = [];

beforeAll(async () => {
  s = await startTestServer();
  hook = await startWebhook();
  const dead = await startWebhook();
  deadUrl = `${dead.base}/gone`;
  await dead.close();
  for (const [name, labels] of [
    ['prod', { env: 'prod' }],
    ['dev', { env: 'dev' }],
  ] as const) {
    const r = await call(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } });
    expect(r.status, r.text).toBe(201);
  }
});
afterEach(async () => {
  for (const path of configs.splice(0)) expect((await call(s, 'DELETE', path)).status).toBe(200);
  hook.received.length = 0;
  hook.behaviour = () => ({ allowed: true });
});
afterAll(async () => {
  await hook?.close();
  await s?.close();
});

/** A webhook entry with the essentials; `extra` overrides. */
function webhook(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: `${hook.base}/admit`, caBundle: hook.caBundle },
    rules: [
      { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
    ],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

async function configure(path: string, name: string, webhooks: unknown[]): Promise<Answer> {
  const kind = path === VALIDATING ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration';
  const r = await call(s, 'POST', path, {
    body: { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks },
  });
  if (r.status === 201) configs.push(`${path}/${name}`);
  return r;
}

const configMap = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels && { labels }) },
  data: { a: '1' },
});

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

  it('the configuration is stored defaulted, and served to get and list', async () => {
    expect((await configure(MUTATING, 'defaults', [webhook('defaults.example.com')])).status).toBe(201);
    const got = await call(s, 'GET', `${MUTATING}/defaults`);
    expect(got.status).toBe(200);
    expect(got.body.metadata.generation).toBe(1);
    expect(got.body.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
      rules: [{ scope: '*' }],
    });
    const list = await call(s, 'GET', MUTATING);
    expect(list.body.kind).toBe('MutatingWebhookConfigurationList');
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['defaults']);
  });

  it('refuses invalid configurations with the upstream field errors', async () => {
    const r = await configure(VALIDATING, 'invalid', [
      webhook('dup.example.com', { clientConfig: { url: 'http://127.0.0.1/x' } }),
      webhook('dup.example.com', {
        sideEffects: undefined,
        timeoutSeconds: 31,
        admissionReviewVersions: ['v2'],
      }),
      webhook('short', { failurePolicy: 'Maybe' }),
    ]);
    expect(r.status).toBe(422);
    const causes = (r.body.details.causes as { field: string; message: string }[]).map(
      (c) => `${c.field}: ${c.message}`,
    );
    expect(causes).toEqual([
      `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[1].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[1].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "dup.example.com"',
      'webhooks[2].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[2].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    ]);
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

  it('failurePolicy Fail refuses a write when the webhook cannot be reached; Ignore lets it through', async () => {
    const dead = { clientConfig: { url: deadUrl, caBundle: hook.caBundle } };
    expect((await configure(VALIDATING, 'dead-fail', [webhook('fail.example.com', dead)])).status).toBe(201);
    const refused = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', {
      body: configMap(fresh('dead')),
    });
    expect(refused.status).toBe(500);
    const port = new URL(deadUrl).port;
    const reason = `failed calling webhook "fail.example.com": failed to call webhook: Post "${deadUrl}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect(refused.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${reason}`,
      reason: 'InternalError',
      details: { causes: [{ message: reason }] },
      code: 500,
    });
    await call(s, 'DELETE', `${VALIDATING}/dead-fail`);
    configs.length = 0;
    expect(
      (
        await configure(VALIDATING, 'dead-ignore', [
          webhook('ignore.example.com', { ...dead, failurePolicy: 'Ignore' }),
        ])
      ).status,
    ).toBe(201);
    const allowed = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', {
      body: configMap(fresh('dead')),
    });
    expect(allowed.status, allowed.text).toBe(201);
  });

  it('a webhook slower than timeoutSeconds fails the call (context deadline exceeded)', {
    timeout: 15_000,
  }, async () => {
    expect(
      (await configure(VALIDATING, 'slow', [webhook('slow.example.com', { timeoutSeconds: 1 })])).status,
    ).toBe(201);
    hook.behaviour = () => 'hang';
    const started = Date.now();
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('slow')) });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hook.base}/admit?timeout=1s": context deadline exceeded`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(hook.received[0]!.url).toBe('/admit?timeout=1s');
  });

  it('a certificate the caBundle does not vouch for fails the call', async () => {
    expect(
      (
        await configure(VALIDATING, 'untrusted', [
          webhook('untrusted.example.com', { clientConfig: { url: `${hook.base}/admit` } }),
        ])
      ).status,
    ).toBe(201);
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', {
      body: configMap(fresh('untrusted')),
    });
    expect(r.status).toBe(500);
    expect(r.body.message).toContain(
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    );
  });

  it('namespaceSelector matches the namespace labels; cluster-scoped objects always match', async () => {
    const prodOnly = webhook('prod.example.com', {
      namespaceSelector: { matchLabels: { env: 'prod' } },
      rules: [
        { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'nodes'] },
      ],
    });
    expect((await configure(VALIDATING, 'prod-only', [prodOnly])).status).toBe(201);
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/dev/configmaps', { body: configMap(fresh('ns')) })).status,
    ).toBe(201);
    expect(hook.received).toHaveLength(0);
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('ns')) })).status,
    ).toBe(201);
    expect(hook.received).toHaveLength(1);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: fresh('node') } };
    expect((await call(s, 'POST', '/api/v1/nodes', { body: node })).status).toBe(201);
    expect(hook.received.map((x) => x.review.request.kind.kind)).toEqual(['ConfigMap', 'Node']);
  });

  it('objectSelector matches the new or the old object labels', async () => {
    const selected = webhook('selected.example.com', {
      objectSelector: { matchExpressions: [{ key: 'watched', operator: 'Exists' }] },
      rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    });
    expect((await configure(VALIDATING, 'selected', [selected])).status).toBe(201);
    const name = fresh('obj');
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(name) })).status,
    ).toBe(201);
    expect(hook.received).toHaveLength(0);
    const path = `/api/v1/namespaces/prod/configmaps/${name}`;
    expect((await call(s, 'PUT', path, { body: configMap(name, { watched: 'yes' }) })).status).toBe(200);
    // The label goes again: the old object still had it.
    expect((await call(s, 'PUT', path, { body: configMap(name) })).status).toBe(200);
    expect(hook.received.map((x) => x.review.request.operation)).toEqual(['UPDATE', 'UPDATE']);
  });

  it('rules decide: another resource, another operation, a subresource', async () => {
    const rules = [
      { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] },
      { operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
      { operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments/status'] },
    ];
    expect((await configure(VALIDATING, 'rules', [webhook('rules.example.com', { rules })])).status).toBe(
      201,
    );
    const name = fresh('rules');
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(name) })).status,
    ).toBe(201);
    expect(hook.received).toHaveLength(0);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    };
    const deployments = '/apis/apps/v1/namespaces/prod/deployments';
    expect((await call(s, 'POST', deployments, { body: deployment })).status).toBe(201);
    const merge = { 'content-type': 'application/merge-patch+json' };
    const status = await call(s, 'PATCH', `${deployments}/${name}/status`, {
      body: { status: { replicas: 0 } },
      headers: merge,
    });
    expect(status.status, status.text).toBe(200);
    expect((await call(s, 'DELETE', `/api/v1/namespaces/prod/configmaps/${name}`)).status).toBe(200);
    expect(
      hook.received.map((x) => [
        x.review.request.operation,
        x.review.request.resource.resource,
        x.review.request.subResource,
      ]),
    ).toEqual([
      ['UPDATE', 'deployments', 'status'],
      ['DELETE', 'configmaps', undefined],
    ]);
    expect(hook.received[1]!.review.request).toMatchObject({
      object: null,
      oldObject: { metadata: { name } },
    });
  });

  it('a dry run reaches webhooks without side effects, with dryRun true', async () => {
    expect(
      (await configure(VALIDATING, 'dry', [webhook('dry.example.com', { sideEffects: 'NoneOnDryRun' })]))
        .status,
    ).toBe(201);
    const name = fresh('dry');
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps?dryRun=All', {
      body: configMap(name),
    });
    expect(r.status, r.text).toBe(201);
    expect(hook.received[0]!.review.request).toMatchObject({ dryRun: true, options: { dryRun: ['All'] } });
    expect((await call(s, 'GET', `/api/v1/namespaces/prod/configmaps/${name}`)).status).toBe(404);
  });

  it('warnings from a webhook reach the Warning header', async () => {
    expect((await configure(VALIDATING, 'warn', [webhook('warn.example.com')])).status).toBe(201);
    hook.behaviour = () => ({ allowed: true, warnings: ['deprecated label'] });
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('warn')) });
    expect(r.status).toBe(201);
    expect(r.headers.warning).toBe('299 - "deprecated label"');
  });

  it('a Service reference cannot be reached here: a missing Service fails as the resolver fails', async () => {
    const service = { clientConfig: { service: { namespace: 'prod', name: 'nowhere', path: '/admit' } } };
    expect((await configure(VALIDATING, 'svc', [webhook('svc.example.com', service)])).status).toBe(201);
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('svc')) });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://nowhere.prod.svc:443/admit?timeout=10s": services "nowhere" not found',
    );
  });

  it('matchPolicy Equivalent calls a webhook registered for another served version, in its version', async () => {
    const crd = widgetCrd({ group: 'equivalent.example.com' });
    const v2 = structuredClone(crd.spec.versions[0]);
    v2.name = 'v2';
    v2.storage = false;
    crd.spec.versions.push(v2);
    await installCrd(s, crd);
    const rules = [
      {
        operations: ['CREATE'],
        apiGroups: ['equivalent.example.com'],
        apiVersions: ['v1'],
        resources: ['widgets'],
      },
    ];
    expect(
      (await configure(VALIDATING, 'equivalent', [webhook('equivalent.example.com', { rules })])).status,
    ).toBe(201);
    expect(
      (await configure(VALIDATING, 'exact', [webhook('exact.example.com', { rules, matchPolicy: 'Exact' })]))
        .status,
    ).toBe(201);
    const r = await call(s, 'POST', '/apis/equivalent.example.com/v2/namespaces/prod/widgets', {
      body: widget(fresh('w'), { size: 1 }, { group: 'equivalent.example.com', version: 'v2' }),
    });
    expect(r.status, r.text).toBe(201);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.review.request).toMatchObject({
      kind: { group: 'equivalent.example.com', version: 'v1', kind: 'Widget' },
      resource: { group: 'equivalent.example.com', version: 'v1', resource: 'widgets' },
      requestKind: { group: 'equivalent.example.com', version: 'v2', kind: 'Widget' },
      requestResource: { group: 'equivalent.example.com', version: 'v2', resource: 'widgets' },
      object: { apiVersion: 'equivalent.example.com/v1' },
    });
  });

  it('writes of webhook configurations never call webhooks, so a broken one can be removed', async () => {
    const everything = webhook('everything.example.com', {
      clientConfig: { url: deadUrl, caBundle: hook.caBundle },
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
    });
    expect((await configure(VALIDATING, 'everything', [everything])).status).toBe(201);
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('x')) })).status,
    ).toBe(500);
    expect((await configure(MUTATING, 'unaffected', [webhook('unaffected.example.com')])).status).toBe(201);
    expect((await call(s, 'DELETE', `${VALIDATING}/everything`)).status).toBe(200);
    configs.splice(configs.indexOf(`${VALIDATING}/everything`), 1);
  });

  it('a restored snapshot brings its configurations back into force', async () => {
    expect((await configure(VALIDATING, 'snap', [webhook('snap.example.com')])).status).toBe(201);
    const snapshot = await s.snapshot();
    expect((await call(s, 'DELETE', `${VALIDATING}/snap`)).status).toBe(200);
    await s.restore(snapshot);
    hook.behaviour = () => ({ allowed: false, status: { message: 'restored' } });
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('snap')) });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('admission webhook "snap.example.com" denied the request: restored');
  });

  it('a deleted configuration is no longer called', async () => {
    expect((await configure(VALIDATING, 'gone', [webhook('gone.example.com')])).status).toBe(201);
    hook.behaviour = () => ({ allowed: false, status: { message: 'closed' } });
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('gone')) }))
        .status,
    ).toBe(400);
    expect((await call(s, 'DELETE', `${VALIDATING}/gone`)).status).toBe(200);
    configs.length = 0;
    expect(
      (await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('gone')) }))
        .status,
    ).toBe(201);
  });
});
