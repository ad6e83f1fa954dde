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
import { configMap, configureOn, useWebhookSuite, VALIDATING, webhookEntry } from './webhooks-fixture.js';

const suite = useWebhookSuite();
let s: RunningServer;
let hook: TestWebhook;
let deadUrl: string;
const configs = suite.configs;
beforeAll(() => {
  ({ s, hook, deadUrl } = suite);
});
const webhook = (name: string, extra: Record<string, unknown> = {}) => webhookEntry(hook, name, extra);
const configure = (path: string, name: string, webhooks: unknown[]) =>
  configureOn(suite, path, name, webhooks);
let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}`;

describe('admission webhooks', () => {
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

  it('a Service reference cannot be reached here: a missing Service fails as the resolver fails', async () => {
    const service = { clientConfig: { service: { namespace: 'prod', name: 'nowhere', path: '/admit' } } };
    expect((await configure(VALIDATING, 'svc', [webhook('svc.example.com', service)])).status).toBe(201);
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap(fresh('svc')) });
    expect(r.status).toBe(500);
    expect(r.body.message).toBe(
      'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://nowhere.prod.svc:443/admit?timeout=10s": services "nowhere" not found',
    );
  });
});
