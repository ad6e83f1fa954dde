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
