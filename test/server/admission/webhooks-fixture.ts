/**
 * What the admission webhook suites share: one server with the namespaces `prod` and `dev`, a
 * webhook server over HTTPS, a dead webhook URL, and the configurations a test made, deleted
 * after it (the webhook's record and behaviour reset with them).
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { type Answer, call, startTestServer } from '../../helpers/server.js';
import { startWebhook, type TestWebhook } from './webhook-server.js';

export const GROUP = '/apis/admissionregistration.k8s.io/v1';
export const VALIDATING = `${GROUP}/validatingwebhookconfigurations`;
export const MUTATING = `${GROUP}/mutatingwebhookconfigurations`;

export interface WebhookSuite {
  s: RunningServer;
  hook: TestWebhook;
  deadUrl: string;
  /** The configurations to delete after the test. */
  configs: string[];
}

/** Registers the suite's hooks; its fields are set once the first `beforeAll` ran. */
export function useWebhookSuite(): WebhookSuite {
  const suite = { configs: [] as string[] } as WebhookSuite;
  beforeAll(async () => {
    suite.s = await startTestServer();
    suite.hook = await startWebhook();
    const dead = await startWebhook();
    suite.deadUrl = `${dead.base}/gone`;
    await dead.close();
    for (const [name, labels] of [
      ['prod', { env: 'prod' }],
      ['dev', { env: 'dev' }],
    ] as const) {
      const r = await call(suite.s, 'POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } });
      expect(r.status, r.text).toBe(201);
    }
  });
  afterEach(async () => {
    for (const path of suite.configs.splice(0))
      expect((await call(suite.s, 'DELETE', path)).status).toBe(200);
    suite.hook.received.length = 0;
    suite.hook.behaviour = () => ({ allowed: true });
  });
  afterAll(async () => {
    await suite.hook?.close();
    await suite.s?.close();
  });
  return suite;
}

/** A webhook entry with the essentials, calling `hook`; `extra` overrides. */
export function webhookEntry(
  hook: TestWebhook,
  name: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
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

/** Creates a webhook configuration, to be deleted after the test when it was created. */
export async function configureOn(
  suite: WebhookSuite,
  path: string,
  name: string,
  webhooks: unknown[],
): Promise<Answer> {
  const kind = path === VALIDATING ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration';
  const r = await call(suite.s, 'POST', path, {
    body: { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks },
  });
  if (r.status === 201) suite.configs.push(`${path}/${name}`);
  return r;
}

export const configMap = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels && { labels }) },
  data: { a: '1' },
});
