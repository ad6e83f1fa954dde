/**
 * A webhook configured as controller-runtime's envtest configures one
 * (pkg/envtest/webhook.go `ModifyWebhookDefinitions`): `caBundle` is the
 * webhook server's own serving certificate, not a CA, and the URL is
 * `https://host:port/` + a path that starts with `/`. kube-apiserver calls it
 * (Go's x509 trusts any certificate of the pool; the rest client cleans the
 * path), so watchmark must too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call } from '../../helpers/server.js';
import type { TestWebhook } from './webhook-server.js';
import { configMap, configureOn, useWebhookSuite, VALIDATING, webhookEntry } from './webhooks-fixture.js';

const suite = useWebhookSuite();
let s: RunningServer;
let hook: TestWebhook;
beforeAll(() => {
  ({ s, hook } = suite);
});

describe('admission webhooks configured as envtest configures them', () => {
  it('a caBundle holding the serving certificate itself is trusted, as Go trusts it', async () => {
    const entry = webhookEntry(hook, 'leaf.example.com', {
      clientConfig: { url: `${hook.base}/admit`, caBundle: hook.servingCertBundle },
    });
    expect((await configureOn(suite, VALIDATING, 'leaf', [entry])).status).toBe(201);
    hook.behaviour = () => ({ allowed: false, status: { message: 'Always denied', code: 403 } });
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap('leaf') });
    expect(r.status, r.text).toBe(403);
    expect(r.body.message).toBe('admission webhook "leaf.example.com" denied the request: Always denied');
  });

  it("the URL's path is cleaned as the rest client cleans it: //admit/ is posted to /admit", async () => {
    const entry = webhookEntry(hook, 'slashes.example.com', {
      clientConfig: { url: `${hook.base}//admit/`, caBundle: hook.caBundle },
    });
    expect((await configureOn(suite, VALIDATING, 'slashes', [entry])).status).toBe(201);
    const r = await call(s, 'POST', '/api/v1/namespaces/prod/configmaps', { body: configMap('slashes') });
    expect(r.status, r.text).toBe(201);
    expect(hook.received.map((h) => h.url)).toEqual(['/admit?timeout=10s']);
  });
});
