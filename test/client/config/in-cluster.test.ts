import { rm, writeFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConnection } from '../../../src/client/config/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { cleanEnv, clientNodeAuthorization, pem, TempDir, withProcessEnv } from './helpers.js';

/** client-node's loadFromCluster(prefix) reads `${prefix}/var/run/secrets/...`. */
const SA_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const CA = pem('CERTIFICATE', 'cluster ca');

let tmp: TempDir;
let root: string;
beforeEach(async () => {
  tmp = await TempDir.create();
  root = tmp.at(SA_PATH);
  await tmp.write(`${SA_PATH}/token`, 'bound-token-1');
  await tmp.write(`${SA_PATH}/ca.crt`, CA);
  await tmp.write(`${SA_PATH}/namespace`, 'team-x');
});
afterEach(async () => {
  await tmp.remove();
});

/** A pod's environment: service env vars, and a HOME without any kubeconfig. */
function podEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return cleanEnv({
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    HOME: tmp.path,
    ...extra,
  });
}

describe('in-cluster configuration', () => {
  it('uses the service env vars and the mounted service account, like client-node', async () => {
    const conn = await loadConnection({ env: podEnv(), inClusterRoot: root });
    expect(conn).toMatchObject({
      server: 'https://10.96.0.1:443',
      caPem: CA,
      insecureSkipTlsVerify: false,
      namespace: 'team-x',
    });
    expect(conn.contextName).toBeUndefined();
    expect(conn.proxyUrl).toBeUndefined();
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-1');

    const kc = new KubeConfig();
    await withProcessEnv({ KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' }, () =>
      kc.loadFromCluster(tmp.path),
    );
    const cluster = kc.getCurrentCluster();
    expect(cluster?.server).toBe(conn.server);
    expect(cluster?.caFile).toBe(`${root}/ca.crt`);
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe(conn.namespace);
    expect(await clientNodeAuthorization(kc)).toBe(await conn.credentials.authorization());
  });

  it('brackets an IPv6 service host and always uses https (client-node picks http for port 8080)', async () => {
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '8080' };
    const conn = await loadConnection({ env: podEnv(env), inClusterRoot: root });
    expect(conn.server).toBe('https://[fd00::1]:8080');
    // DIFFERENCE: client-node guesses http for ports 80, 8080 and 8001; client-go's
    // InClusterConfig is always https, which is what the service serves.
    const kc = new KubeConfig();
    await withProcessEnv(env, () => kc.loadFromCluster(tmp.path));
    expect(kc.getCurrentCluster()?.server).toBe('http://[fd00::1]:8080');
  });

  it('picks up a rotated token after invalidate(), and by itself after a minute', async () => {
    const clock = new ManualClock();
    const conn = await loadConnection({ env: podEnv(), inClusterRoot: root, clock });
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-1');
    await writeFile(`${root}/token`, 'bound-token-2\n');
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-1');
    conn.credentials.invalidate();
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-2');
    await writeFile(`${root}/token`, 'bound-token-3');
    clock.advance(60_000);
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-3');
  });

  it('takes the namespace from POD_NAMESPACE first, then the trimmed file, then default', async () => {
    await writeFile(`${root}/namespace`, 'from-file\n');
    expect((await loadConnection({ env: podEnv(), inClusterRoot: root })).namespace).toBe('from-file');
    const downward = podEnv({ POD_NAMESPACE: 'from-downward-api' });
    expect((await loadConnection({ env: downward, inClusterRoot: root })).namespace).toBe(
      'from-downward-api',
    );
    await rm(`${root}/namespace`);
    expect((await loadConnection({ env: podEnv(), inClusterRoot: root })).namespace).toBe('default');
    const override = await loadConnection({ env: downward, inClusterRoot: root, namespace: 'flag' });
    expect(override.namespace).toBe('flag');
  });

  it('goes on without ca.crt (system roots), as client-go does', async () => {
    await rm(`${root}/ca.crt`);
    const conn = await loadConnection({ env: podEnv(), inClusterRoot: root });
    expect(conn.caPem).toBeUndefined();
    expect(await conn.credentials.authorization()).toBe('Bearer bound-token-1');
  });

  it('is not tried without a token file or without both env vars', async () => {
    const noPort = podEnv({ KUBERNETES_SERVICE_PORT: '' });
    await expect(loadConnection({ env: noPort, inClusterRoot: root })).rejects.toThrow(
      /^no kubeconfig found/,
    );
    await rm(`${root}/token`);
    await expect(loadConnection({ env: podEnv(), inClusterRoot: root })).rejects.toThrow(
      /^no kubeconfig found/,
    );
  });

  it('yields to a kubeconfig with a context, but not to one without', async () => {
    const withContext = await tmp.kubeconfig('kc/with-context', {
      'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: 'https://outside.example' } }],
      contexts: [{ name: 'c', context: { cluster: 'c' } }],
    });
    const without = await tmp.kubeconfig('kc/without', {
      clusters: [{ name: 'c', cluster: { server: 'https://outside.example' } }],
    });
    const kubeconfigWins = await loadConnection({
      env: podEnv({ KUBECONFIG: withContext }),
      inClusterRoot: root,
    });
    expect(kubeconfigWins.server).toBe('https://outside.example');
    // client-go treats a kubeconfig that selects no context as empty and tries in-cluster.
    const podWins = await loadConnection({ env: podEnv({ KUBECONFIG: without }), inClusterRoot: root });
    expect(podWins.server).toBe('https://10.96.0.1:443');
    // An explicit --context must exist, in a pod or not.
    await expect(
      loadConnection({ env: podEnv({ KUBECONFIG: without }), inClusterRoot: root, context: 'x' }),
    ).rejects.toThrow(ConfigError);
  });

  it('applies --server, sending the token to https servers only', async () => {
    const https = await loadConnection({
      env: podEnv(),
      inClusterRoot: root,
      server: 'https://apiserver.example/',
    });
    expect(https.server).toBe('https://apiserver.example');
    expect(await https.credentials.authorization()).toBe('Bearer bound-token-1');
    const http = await loadConnection({
      env: podEnv(),
      inClusterRoot: root,
      server: 'http://127.0.0.1:8001',
    });
    expect(await http.credentials.authorization()).toBeUndefined();
  });

  it('uses HTTPS_PROXY unless NO_PROXY covers the service address', async () => {
    const proxied = await loadConnection({
      env: podEnv({ HTTPS_PROXY: 'http://proxy.corp:3128' }),
      inClusterRoot: root,
    });
    expect(proxied.proxyUrl).toBe('http://proxy.corp:3128');
    const direct = await loadConnection({
      env: podEnv({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '.svc,10.96.0.0/12' }),
      inClusterRoot: root,
    });
    expect(direct.proxyUrl).toBeUndefined();
  });
});
