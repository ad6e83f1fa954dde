/**
 * Admission webhooks configured by ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration objects, called over real HTTPS (a webhook server in the test):
 * the AdmissionReview they get, denials, patches in order, failurePolicy with a dead URL,
 * timeouts, namespace and object selectors, rules, Service references, dry runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { call } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';
import type { TestWebhook } from './webhook-server.js';
import { configMap, configureOn, useWebhookSuite, VALIDATING, webhookEntry } from './webhooks-fixture.js';

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
});
