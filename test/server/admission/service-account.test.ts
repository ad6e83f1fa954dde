/**
 * The ServiceAccount admission plugin (admission/service-account.ts, service-account-pod.ts):
 * what it does to a pod given its account, and through a server with the plugin on, the
 * lookups and refusals. test/fidelity/cases/serviceaccount-admission.yaml compares the same
 * against kube-apiserver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyImagePullSecrets,
  enforcesMountableSecrets,
  mirrorPodRefusal,
  mountServiceAccountToken,
  secretReferenceRefusal,
  shouldAutomount,
  TOKEN_MOUNT_PATH,
  tokenVolumeSource,
} from '../../../src/server/admission/service-account-pod.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';

type Json = any;

const generate = (base: string) => `${base}abcde`;
const mount = (name = 'kube-api-access-abcde') => ({ name, readOnly: true, mountPath: TOKEN_MOUNT_PATH });

describe('the token volume', () => {
  it('mounts every init container and container, not ephemeral ones, and adds the projected volume', () => {
    const pod: Json = {
      spec: {
        initContainers: [{ name: 'i' }],
        containers: [{ name: 'a', volumeMounts: [{ name: 'd', mountPath: '/d' }] }, { name: 'b' }],
        ephemeralContainers: [{ name: 'e' }],
        volumes: [{ name: 'd', emptyDir: {} }],
      },
    };
    mountServiceAccountToken(pod, generate);
    expect(pod.spec.initContainers[0].volumeMounts).toEqual([mount()]);
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: 'd', mountPath: '/d' }, mount()]);
    expect(pod.spec.containers[1].volumeMounts).toEqual([mount()]);
    expect(pod.spec.ephemeralContainers[0].volumeMounts).toBeUndefined();
    expect(pod.spec.volumes).toEqual([
      { name: 'd', emptyDir: {} },
      { name: 'kube-api-access-abcde', projected: tokenVolumeSource() },
    ]);
    expect((tokenVolumeSource().sources as unknown[])[0]).toEqual({
      serviceAccountToken: { expirationSeconds: 3607, path: 'token' },
    });
  });

  it('leaves a container that mounts the path, and adds no volume when none needs it', () => {
    const pod: Json = {
      spec: { containers: [{ name: 'a', volumeMounts: [{ name: 't', mountPath: TOKEN_MOUNT_PATH }] }] },
    };
    mountServiceAccountToken(pod, generate);
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: 't', mountPath: TOKEN_MOUNT_PATH }]);
    expect(pod.spec.volumes).toBeUndefined();
  });

  it('takes a volume named kube-api-access-* as the token volume', () => {
    const pod: Json = {
      spec: { containers: [{ name: 'a' }], volumes: [{ name: 'kube-api-access-x', emptyDir: {} }] },
    };
    mountServiceAccountToken(pod, generate);
    expect(pod.spec.containers[0].volumeMounts).toEqual([mount('kube-api-access-x')]);
    expect(pod.spec.volumes).toHaveLength(1);
  });

  it("lets the pod's automount choice win over the account's, and defaults to true", () => {
    expect(shouldAutomount({}, { spec: {} })).toBe(true);
    expect(shouldAutomount({ automountServiceAccountToken: false }, { spec: {} })).toBe(false);
    expect(
      shouldAutomount(
        { automountServiceAccountToken: false },
        { spec: { automountServiceAccountToken: true } },
      ),
    ).toBe(true);
    expect(shouldAutomount({}, { spec: { automountServiceAccountToken: false } })).toBe(false);
  });
});

describe('image pull secrets and mountable secrets', () => {
  it("copies the account's image pull secrets to a pod that has none", () => {
    const pod: Json = { spec: {} };
    copyImagePullSecrets({ imagePullSecrets: [{ name: 'a' }, { name: 'b' }] }, pod);
    expect(pod.spec.imagePullSecrets).toEqual([{ name: 'a' }, { name: 'b' }]);
    const own: Json = { spec: { imagePullSecrets: [{ name: 'mine' }] } };
    copyImagePullSecrets({ imagePullSecrets: [{ name: 'a' }] }, own);
    expect(own.spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });

  it('reads the enforce-mountable-secrets annotation as strconv.ParseBool', () => {
    const account = (v: string) => ({
      metadata: { annotations: { 'kubernetes.io/enforce-mountable-secrets': v } },
    });
    for (const v of ['1', 't', 'T', 'true', 'TRUE', 'True'])
      expect(enforcesMountableSecrets(account(v))).toBe(true);
    for (const v of ['0', 'yes', 'tRuE', '']) expect(enforcesMountableSecrets(account(v))).toBe(false);
  });

  it('words the first reference the account does not allow', () => {
    const account = {
      metadata: { name: 'sa' },
      secrets: [{ name: 'ok' }],
      imagePullSecrets: [{ name: 'pull' }],
    };
    const pod = (spec: Json) => ({ spec });
    expect(
      secretReferenceRefusal(account, pod({ volumes: [{ name: 'v', secret: { secretName: 'ok' } }] })),
    ).toBeUndefined();
    expect(
      secretReferenceRefusal(account, pod({ volumes: [{ name: 'v', secret: { secretName: 'no' } }] })),
    ).toBe(
      'volume with secret.secretName="no" is not allowed because service account sa does not reference that secret',
    );
    expect(
      secretReferenceRefusal(
        account,
        pod({
          containers: [
            { name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'no', key: 'k' } } }] },
          ],
        }),
      ),
    ).toBe(
      'container c with envVar E referencing secret.secretName="no" is not allowed because service account sa does not reference that secret',
    );
    expect(
      secretReferenceRefusal(account, pod({ imagePullSecrets: [{ name: 'pull' }, { name: 'x' }] })),
    ).toBe(
      'imagePullSecrets[1].name="x" is not allowed because service account sa does not reference that imagePullSecret',
    );
  });

  it('holds mirror pods to no account, no secret and no token projection', () => {
    expect(mirrorPodRefusal({ spec: { containers: [{ name: 'c' }] } })).toBeUndefined();
    expect(mirrorPodRefusal({ spec: { serviceAccountName: 'default' } })).toBe(
      'a mirror pod may not reference service accounts',
    );
    expect(
      mirrorPodRefusal({ spec: { volumes: [{ name: 'v', csi: { nodePublishSecretRef: { name: 's' } } }] } }),
    ).toBe('a mirror pod may not reference secrets');
    expect(
      mirrorPodRefusal({
        spec: { volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] },
      }),
    ).toBe('a mirror pod may not use ServiceAccountToken volume projections');
  });
});

describe('through a server with the plugin on', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startTestServer({ disableAdmissionPlugins: [] });
    await ensureNamespace(s, 'sa');
  });
  afterAll(async () => {
    await s?.close();
  });
  const podOf = (name: string, spec: Json = {}) => ({
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });

  it('refuses a pod whose account does not exist, before validating it', async () => {
    const r = await call(s, 'POST', '/api/v1/namespaces/sa/pods', {
      body: {
        metadata: { generateName: 'p-' },
        spec: { serviceAccountName: 'nobody', containers: [{ name: 'c' }] },
      },
    });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "p-" is forbidden: error looking up service account sa/nobody: serviceaccount "nobody" not found',
      details: { name: 'p-', kind: 'pods' },
    });
  });

  it('waits a moment for the default account, then finds an account created just before live', async () => {
    const started = Date.now();
    const missing = await call(s, 'POST', '/api/v1/namespaces/sa/pods', { body: podOf('early') });
    expect(missing.status).toBe(403);
    // Ten live reads 100 to 200 ms apart, as the plugin retries `default`.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await call(s, 'POST', '/api/v1/namespaces/sa/serviceaccounts', {
      body: { metadata: { name: 'default' } },
    });
    const r = await call(s, 'POST', '/api/v1/namespaces/sa/pods', { body: podOf('later') });
    expect(r.status, r.text).toBe(201);
    expect(r.body.spec.serviceAccountName).toBe('default');
    expect(r.body.spec.volumes[0].name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    // The field manager saw the pod before the plugin: the volume is nobody's.
    expect(JSON.stringify(r.body.metadata.managedFields)).not.toContain('kube-api-access');
  });

  it('checks the account again on a pods/ephemeralcontainers update, and not on other updates', async () => {
    await call(s, 'POST', '/api/v1/namespaces/sa/serviceaccounts', { body: { metadata: { name: 'brief' } } });
    expect(
      (
        await call(s, 'POST', '/api/v1/namespaces/sa/pods', {
          body: podOf('eph', { serviceAccountName: 'brief' }),
        })
      ).status,
    ).toBe(201);
    expect((await call(s, 'DELETE', '/api/v1/namespaces/sa/serviceaccounts/brief')).status).toBe(200);
    const patch = { spec: { ephemeralContainers: [{ name: 'd', image: 'busybox' }] } };
    const headers = { 'content-type': 'application/strategic-merge-patch+json' };
    const r = await call(s, 'PATCH', '/api/v1/namespaces/sa/pods/eph/ephemeralcontainers', {
      body: patch,
      headers,
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(
      'pods "eph" is forbidden: error looking up service account sa/brief: serviceaccount "brief" not found',
    );
    const labels = { metadata: { labels: { a: 'b' } } };
    const merge = { 'content-type': 'application/merge-patch+json' };
    expect(
      (await call(s, 'PATCH', '/api/v1/namespaces/sa/pods/eph', { body: labels, headers: merge })).status,
    ).toBe(200);
  });
});
