/**
 * The real kubectl with admission webhooks: it applies a ValidatingWebhookConfiguration pointing
 * at an HTTPS webhook in this test, lists it, and sees the webhook's denial of `kubectl create`.
 * Skipped loudly without kubectl on PATH (a failure under CI=true, test/helpers/tools.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from '../kubectl/fixture.js';
import { startWebhook, type TestWebhook } from './webhook-server.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);
/** The kubectl on PATH, and the oldest and newest versioned ones beside it (1.27 explains from OpenAPI v2). */
const chosen = [...new Set([kubectls[0], kubectls[1], kubectls.at(-1)])].filter((k) => k !== undefined);

describe.skipIf(!haveKubectl).each(chosen.map((k) => [k.name, k] as const))(
  '%s and admission webhooks',
  (_, binary) => {
    const fixture = useKubectlServer(binary, 'admission');
    let hook: TestWebhook;

    beforeAll(async () => {
      hook = await startWebhook();
      hook.behaviour = (r) =>
        r.kind.kind === 'ConfigMap' && r.operation === 'CREATE'
          ? {
              allowed: false,
              status: { code: 403, reason: 'Forbidden', message: 'configmaps are frozen here' },
            }
          : { allowed: true };
    });
    afterAll(async () => {
      await hook?.close();
    });

    it('applies a ValidatingWebhookConfiguration and shows the denial of kubectl create', {
      timeout: 60_000,
    }, async () => {
      const { kubectl, file } = fixture;
      const config = await file(
        'webhook.yaml',
        `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: freeze-configmaps
webhooks:
- name: freeze.example.com
  clientConfig:
    url: ${hook.base}/validate
    caBundle: ${hook.caBundle}
  rules:
  - operations: ["CREATE"]
    apiGroups: [""]
    apiVersions: ["v1"]
    resources: ["configmaps"]
  sideEffects: None
  admissionReviewVersions: ["v1"]
  failurePolicy: Fail
`,
      );
      const applied = await kubectl.run(['apply', '-f', config]);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout.trim()).toBe(
        'validatingwebhookconfiguration.admissionregistration.k8s.io/freeze-configmaps created',
      );
      // Applied again: `rules` is an atomic list whose stored items carry the defaulted
      // `scope: "*"`, so kubectl's three-way patch sets it again ("configured"), and the server
      // finds nothing changed: the generation stays 1.
      const again = await kubectl.run(['apply', '-f', config]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout.trim()).toBe(
        'validatingwebhookconfiguration.admissionregistration.k8s.io/freeze-configmaps configured',
      );
      const generation = await kubectl.run([
        'get',
        'validatingwebhookconfiguration',
        'freeze-configmaps',
        '-o',
        'jsonpath={.metadata.generation} {.webhooks[0].rules[0].scope} {.webhooks[0].timeoutSeconds}',
      ]);
      expect(generation.stdout).toBe('1 * 10');
      const listed = await kubectl.run(['get', 'validatingwebhookconfigurations']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^NAME\s+WEBHOOKS\s+AGE\nfreeze-configmaps\s+1\s+\d+s\n$/);

      const cm = await file(
        'cm.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frozen\ndata:\n  a: "1"\n',
      );
      const created = await kubectl.inNamespace(['create', '-f', cm]);
      expect(created.code).not.toBe(0);
      expect(created.stderr.trim()).toBe(
        `Error from server (Forbidden): error when creating "${cm}": admission webhook "freeze.example.com" denied the request: configmaps are frozen here`,
      );
      expect(hook.received.map((r) => r.review.request.name)).toEqual(['frozen']);

      const deleted = await kubectl.run(['delete', 'validatingwebhookconfiguration', 'freeze-configmaps']);
      expect(deleted.code, deleted.stderr).toBe(0);
      const createdLater = await kubectl.inNamespace(['create', '-f', cm]);
      expect(createdLater.code, createdLater.stderr).toBe(0);
      expect(createdLater.stdout.trim()).toBe('configmap/frozen created');
    });
  },
);
