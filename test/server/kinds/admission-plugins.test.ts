/**
 * `disableAdmissionPlugins` (`--disable-admission-plugins`): each built-in plugin watchmark runs
 * can be turned off by kube-apiserver's name for it, and only its additions go (the envtest
 * reference's pods, created without the ServiceAccount plugin, name no service account; see
 * test/fidelity's envtest profile). Names kube-apiserver does not know, and plugins woven into
 * watchmark's write path, fail the start with a message that says which and why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { disabledAdmissionPlugins, startServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod } from '../../helpers/server.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serverWithout(plugins: string[]): Promise<RunningServer> {
  const s = await startServer({ insecureHttp: true, insecureNoAuth: true, disableAdmissionPlugins: plugins });
  servers.push(s);
  await ensureNamespace(s, 'ap');
  // The account the ServiceAccount plugin requires of a pod (no controller makes it here).
  const account = { metadata: { name: 'default' } };
  expect((await call(s, 'POST', '/api/v1/namespaces/ap/serviceaccounts', { body: account })).status).toBe(
    201,
  );
  return s;
}

async function createdPodSpec(s: RunningServer): Promise<Record<string, unknown>> {
  const res = await call(s, 'POST', '/api/v1/namespaces/ap/pods', { body: pod('p') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { spec: Record<string, unknown> }).spec;
}

describe('disableAdmissionPlugins', () => {
  it('runs every plugin by default', async () => {
    const spec = await createdPodSpec(await serverWithout([]));
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    expect(spec.volumes).toEqual([
      expect.objectContaining({ name: expect.stringMatching(/^kube-api-access-/) }),
    ]);
    expect(spec.priority).toBe(0);
    expect(spec.tolerations).toHaveLength(2);
  });

  it('without ServiceAccount names no account, and keeps the other plugins', async () => {
    const spec = await createdPodSpec(await serverWithout(['ServiceAccount']));
    expect(spec).not.toHaveProperty('serviceAccountName');
    expect(spec).not.toHaveProperty('serviceAccount');
    expect(spec).not.toHaveProperty('volumes');
    expect(spec.priority).toBe(0);
    expect(spec.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(spec.tolerations).toHaveLength(2);
  });

  it('without Priority and DefaultTolerationSeconds adds neither', async () => {
    const spec = await createdPodSpec(await serverWithout(['Priority', 'DefaultTolerationSeconds']));
    expect(spec.serviceAccountName).toBe('default');
    expect(spec).not.toHaveProperty('priority');
    expect(spec).not.toHaveProperty('preemptionPolicy');
    expect(spec).not.toHaveProperty('tolerations');
  });

  it('without TaintNodesByCondition creates Nodes untainted', async () => {
    const s = await serverWithout(['TaintNodesByCondition']);
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
    const res = await call(s, 'POST', '/api/v1/nodes', { body: node });
    expect(res.status).toBe(201);
    expect((res.body as { spec: object }).spec).toEqual({});
  });

  it("accepts a plugin kube-apiserver knows and watchmark never runs, and refuses the rest in kube's words", () => {
    expect([...disabledAdmissionPlugins(['LimitRanger', 'ServiceAccount'])]).toEqual([
      'LimitRanger',
      'ServiceAccount',
    ]);
    expect(() => disabledAdmissionPlugins(['ServiceAcount'])).toThrow(
      'disable-admission-plugins plugin "ServiceAcount" is unknown',
    );
    expect(() => disabledAdmissionPlugins(['NamespaceLifecycle'])).toThrow(
      /plugin "NamespaceLifecycle" cannot be disabled in watchmark \(it can disable ServiceAccount, Priority, DefaultTolerationSeconds, TaintNodesByCondition\)/,
    );
  });

  it('fails the start on a name it refuses', async () => {
    await expect(
      startServer({ insecureHttp: true, insecureNoAuth: true, disableAdmissionPlugins: ['Nope'] }),
    ).rejects.toThrow('disable-admission-plugins plugin "Nope" is unknown');
  });
});
