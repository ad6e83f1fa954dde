import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConnection } from '../../../src/client/config/index.js';
import {
  b64,
  type Comparable,
  cleanEnv,
  clientNodeAuthorization,
  clientNodeView,
  haveKubectl,
  kubectlConfigView,
  kubectlView,
  ours,
  pem,
  TempDir,
  withProcessEnv,
} from './helpers.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await TempDir.create();
});
afterEach(async () => {
  await tmp.remove();
});

const CA_DATA = pem('CERTIFICATE', 'ca from data');
const CA_FILE = pem('CERTIFICATE', 'ca from file');
const CERT = pem('CERTIFICATE', 'client cert');
const KEY = pem('PRIVATE KEY', 'client key');

/** One file exercising every cluster and user field kubectl reads, one context per combination. */
async function writeEverythingConfig(): Promise<string> {
  await tmp.write('conf/ca/file-ca.crt', CA_FILE);
  await tmp.write('conf/pki/client.crt', CERT);
  await tmp.write('conf/pki/client.key', KEY);
  return tmp.kubeconfig('conf/config.yaml', {
    'current-context': 'ctx-token',
    clusters: [
      {
        name: 'data-ca',
        cluster: { server: 'https://data-ca.example:6443/', 'certificate-authority-data': b64(CA_DATA) },
      },
      {
        name: 'file-ca',
        cluster: { server: 'https://file-ca.example', 'certificate-authority': 'ca/file-ca.crt' },
      },
      {
        name: 'insecure',
        cluster: {
          server: 'https://10.1.2.3:6443',
          'insecure-skip-tls-verify': true,
          'tls-server-name': 'kubernetes',
        },
      },
      {
        name: 'proxied',
        cluster: {
          server: 'https://proxied.example/k8s/clusters/c-1',
          'proxy-url': 'http://proxy.example:3128',
          'certificate-authority-data': b64(CA_DATA),
        },
      },
    ],
    users: [
      { name: 'token-user', user: { token: 'tok-static' } },
      { name: 'cert-data', user: { 'client-certificate-data': b64(CERT), 'client-key-data': b64(KEY) } },
      { name: 'cert-file', user: { 'client-certificate': 'pki/client.crt', 'client-key': 'pki/client.key' } },
      { name: 'basic', user: { username: 'admin', password: 'hunter2' } },
    ],
    contexts: [
      { name: 'ctx-token', context: { cluster: 'data-ca', user: 'token-user', namespace: 'team-a' } },
      { name: 'ctx-cert-data', context: { cluster: 'file-ca', user: 'cert-data' } },
      {
        name: 'ctx-cert-file',
        context: { cluster: 'insecure', user: 'cert-file', namespace: 'kube-system' },
      },
      { name: 'ctx-basic', context: { cluster: 'proxied', user: 'basic' } },
    ],
  });
}

describe('loadConnection against kubectl and client-node: one file', () => {
  const contexts = ['ctx-token', 'ctx-cert-data', 'ctx-cert-file', 'ctx-basic'];

  it.each(contexts)('context %s matches client-node', async (context) => {
    const path = await writeEverythingConfig();
    const conn = await loadConnection({ kubeconfig: path, context, env: cleanEnv({ HOME: tmp.path }) });
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    kc.setCurrentContext(context);
    expect(await ours(conn)).toEqual(await clientNodeView(kc));
    expect(await conn.credentials.authorization()).toEqual(await clientNodeAuthorization(kc));
  });

  it.skipIf(!haveKubectl).each(contexts)(
    'context %s matches kubectl config view --minify',
    async (context) => {
      const path = await writeEverythingConfig();
      const conn = await loadConnection({ kubeconfig: path, context, env: cleanEnv({ HOME: tmp.path }) });
      const view = await kubectlConfigView({ kubeconfigFlag: path, context, home: tmp.path });
      expect(await ours(conn)).toEqual(kubectlView(view));
      const user = view.users?.[0]?.user ?? {};
      if (user.username !== undefined) {
        expect(await conn.credentials.authorization()).toBe(
          `Basic ${b64(`${user.username}:${user.password}`)}`,
        );
      }
    },
  );

  it('yields the expected values (not just agreement)', async () => {
    const path = await writeEverythingConfig();
    const env = cleanEnv({ HOME: tmp.path });
    const token = await loadConnection({ kubeconfig: path, env });
    expect(await ours(token)).toEqual({
      server: 'https://data-ca.example:6443',
      caPem: CA_DATA,
      insecure: false,
      token: 'tok-static',
      namespace: 'team-a',
      context: 'ctx-token',
    } satisfies Comparable);
    const certFile = await loadConnection({ kubeconfig: path, env, context: 'ctx-cert-file' });
    expect(await ours(certFile)).toEqual({
      server: 'https://10.1.2.3:6443',
      insecure: true,
      tlsServerName: 'kubernetes',
      certPem: CERT,
      keyPem: KEY,
      namespace: 'kube-system',
      context: 'ctx-cert-file',
    } satisfies Comparable);
    expect(await certFile.credentials.authorization()).toBeUndefined();
    expect(await certFile.credentials.clientCertificate()).toBeUndefined();
    const basic = await loadConnection({ kubeconfig: path, env, context: 'ctx-basic' });
    expect(basic.server).toBe('https://proxied.example/k8s/clusters/c-1');
    expect(basic.proxyUrl).toBe('http://proxy.example:3128');
    expect(await basic.credentials.authorization()).toBe(`Basic ${b64('admin:hunter2')}`);
  });
});

describe('KUBECONFIG with several files', () => {
  /** Two files in different directories, each using the relative name `ca.crt` for a different CA. */
  async function writeTwoDirs(): Promise<{ list: string; a: string; b: string }> {
    await tmp.write('a/ca.crt', pem('CERTIFICATE', 'ca of a'));
    await tmp.write('b/ca.crt', pem('CERTIFICATE', 'ca of b'));
    await tmp.write('b/certs/me.crt', CERT);
    await tmp.write('b/certs/me.key', KEY);
    const a = await tmp.kubeconfig('a/config', {
      'current-context': 'mixed',
      clusters: [
        { name: 'cluster-a', cluster: { server: 'https://a.example', 'certificate-authority': 'ca.crt' } },
      ],
      contexts: [{ name: 'mixed', context: { cluster: 'cluster-b', user: 'user-b', namespace: 'from-a' } }],
    });
    const b = await tmp.kubeconfig('b/config', {
      clusters: [
        { name: 'cluster-b', cluster: { server: 'https://b.example', 'certificate-authority': 'ca.crt' } },
      ],
      users: [
        { name: 'user-b', user: { 'client-certificate': 'certs/me.crt', 'client-key': 'certs/me.key' } },
      ],
      contexts: [{ name: 'only-a-cluster', context: { cluster: 'cluster-a', user: 'user-b' } }],
    });
    return { list: [a, b].join(':'), a, b };
  }

  it('merges entries across files, resolving each relative path against its own file', async () => {
    const { list } = await writeTwoDirs();
    for (const context of ['mixed', 'only-a-cluster']) {
      const conn = await loadConnection({ context, env: cleanEnv({ KUBECONFIG: list, HOME: tmp.path }) });
      const kc = new KubeConfig();
      await withProcessEnv({ KUBECONFIG: list, HOME: tmp.path }, () => kc.loadFromDefault());
      kc.setCurrentContext(context);
      expect(await ours(conn)).toEqual(await clientNodeView(kc));
      if (haveKubectl) {
        const view = await kubectlConfigView({ kubeconfigEnv: list, context, home: tmp.path });
        expect(await ours(conn)).toEqual(kubectlView(view));
      }
    }
    const mixed = await loadConnection({ env: cleanEnv({ KUBECONFIG: list }) });
    expect(mixed.caPem).toBe(pem('CERTIFICATE', 'ca of b'));
    expect(mixed.namespace).toBe('from-a');
    const other = await loadConnection({ context: 'only-a-cluster', env: cleanEnv({ KUBECONFIG: list }) });
    expect(other.caPem).toBe(pem('CERTIFICATE', 'ca of a'));
  });

  it('lets the first file to define a name win, as kubectl does (client-node refuses)', async () => {
    const first = await tmp.kubeconfig('first.yaml', {
      'current-context': 'shared',
      clusters: [
        { name: 'shared', cluster: { server: 'https://first.example', 'insecure-skip-tls-verify': true } },
      ],
      users: [{ name: 'shared', user: { token: 'first-token' } }],
      contexts: [{ name: 'shared', context: { cluster: 'shared', user: 'shared', namespace: 'first-ns' } }],
    });
    const second = await tmp.kubeconfig('second.yaml', {
      'current-context': 'second-only',
      clusters: [
        { name: 'shared', cluster: { server: 'https://second.example', 'tls-server-name': 'second' } },
        { name: 'second-only', cluster: { server: 'https://second-only.example' } },
      ],
      users: [{ name: 'shared', user: { username: 'second', password: 'pw' } }],
      contexts: [
        { name: 'shared', context: { cluster: 'second-only', user: 'shared' } },
        { name: 'second-only', context: { cluster: 'shared', user: 'shared', namespace: 'second-ns' } },
      ],
    });
    const list = `${first}:${second}`;
    const env = cleanEnv({ KUBECONFIG: list });
    const conn = await loadConnection({ env });
    // Entries are taken whole from the first file, never merged field by field.
    expect(await ours(conn)).toEqual({
      server: 'https://first.example',
      insecure: true,
      token: 'first-token',
      namespace: 'first-ns',
      context: 'shared',
    } satisfies Comparable);
    // A context from the second file still resolves its names against the merged (first-wins) maps.
    const secondOnly = await loadConnection({ env, context: 'second-only' });
    expect(await ours(secondOnly)).toMatchObject({ server: 'https://first.example', token: 'first-token' });
    if (haveKubectl) {
      for (const context of [undefined, 'second-only']) {
        const view = await kubectlConfigView({ kubeconfigEnv: list, context, home: tmp.path });
        const c = await loadConnection({ env, context });
        expect(await ours(c)).toEqual(kubectlView(view));
      }
    }
    // DIFFERENCE: client-node 1.x throws on a name defined by two files instead of
    // letting the first win; kubectl (the reference) merges as above.
    await withProcessEnv({ KUBECONFIG: list }, () => {
      expect(() => new KubeConfig().loadFromDefault()).toThrow(/Duplicate cluster: shared/);
    });
  });

  it('takes current-context from the first file that sets it (client-node takes the last)', async () => {
    const one = await tmp.kubeconfig('one.yaml', {
      'current-context': 'ctx-one',
      clusters: [{ name: 'one', cluster: { server: 'https://one.example' } }],
      contexts: [{ name: 'ctx-one', context: { cluster: 'one' } }],
    });
    const unset = await tmp.kubeconfig('unset.yaml', { clusters: [] });
    const two = await tmp.kubeconfig('two.yaml', {
      'current-context': 'ctx-two',
      clusters: [{ name: 'two', cluster: { server: 'https://two.example' } }],
      contexts: [{ name: 'ctx-two', context: { cluster: 'two' } }],
    });
    const list = [unset, one, two].join(':');
    const conn = await loadConnection({ env: cleanEnv({ KUBECONFIG: list }) });
    expect(conn.contextName).toBe('ctx-one');
    expect(conn.server).toBe('https://one.example');
    if (haveKubectl) {
      const view = await kubectlConfigView({ kubeconfigEnv: list, home: tmp.path });
      expect(view['current-context']).toBe('ctx-one');
    }
    // DIFFERENCE: client-node's loadFromDefault lets each later file's
    // current-context replace the earlier one, so it picks the last file's.
    const kc = new KubeConfig();
    await withProcessEnv({ KUBECONFIG: list }, () => kc.loadFromDefault());
    expect(kc.getCurrentContext()).toBe('ctx-two');
  });

  it('skips files of the list that do not exist (client-node throws)', async () => {
    const real = await tmp.kubeconfig('real.yaml', {
      'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: 'https://real.example' } }],
      contexts: [{ name: 'c', context: { cluster: 'c' } }],
    });
    // Empty items and repeats are ignored too.
    const list = [tmp.at('missing-1'), '', real, tmp.at('missing-2'), real].join(':');
    const conn = await loadConnection({ env: cleanEnv({ KUBECONFIG: list }) });
    expect(conn.server).toBe('https://real.example');
    if (haveKubectl) {
      const view = await kubectlConfigView({ kubeconfigEnv: list, home: tmp.path });
      expect(kubectlView(view).server).toBe('https://real.example');
    }
    // DIFFERENCE: client-node reads every listed file and fails on the first missing one.
    await withProcessEnv({ KUBECONFIG: list }, () => {
      expect(() => new KubeConfig().loadFromDefault()).toThrow(/ENOENT/);
    });
  });
});

describe('which file is read', () => {
  async function homeConfig(): Promise<void> {
    await tmp.kubeconfig('home/.kube/config', {
      'current-context': 'home',
      clusters: [{ name: 'home', cluster: { server: 'https://home.example' } }],
      contexts: [{ name: 'home', context: { cluster: 'home', namespace: 'home-ns' } }],
    });
  }

  it('reads ~/.kube/config when KUBECONFIG is unset or empty', async () => {
    await homeConfig();
    const home = tmp.at('home');
    for (const KUBECONFIG of [undefined, '']) {
      const conn = await loadConnection({ env: cleanEnv({ HOME: home, KUBECONFIG }) });
      expect(conn).toMatchObject({
        server: 'https://home.example',
        namespace: 'home-ns',
        contextName: 'home',
      });
      const kc = new KubeConfig();
      await withProcessEnv({ HOME: home, KUBECONFIG }, () => kc.loadFromDefault());
      expect(await ours(conn)).toEqual(await clientNodeView(kc));
      if (haveKubectl) {
        const view = await kubectlConfigView({ kubeconfigEnv: KUBECONFIG, home });
        expect(await ours(conn)).toEqual(kubectlView(view));
      }
    }
  });

  it('prefers --kubeconfig over KUBECONFIG, and KUBECONFIG over ~/.kube/config', async () => {
    await homeConfig();
    const fromEnv = await tmp.kubeconfig('env.yaml', {
      'current-context': 'env',
      clusters: [{ name: 'env', cluster: { server: 'https://env.example' } }],
      contexts: [{ name: 'env', context: { cluster: 'env' } }],
    });
    const fromFlag = await tmp.kubeconfig('flag.yaml', {
      'current-context': 'flag',
      clusters: [{ name: 'flag', cluster: { server: 'https://flag.example' } }],
      contexts: [{ name: 'flag', context: { cluster: 'flag' } }],
    });
    const env = cleanEnv({ HOME: tmp.at('home'), KUBECONFIG: fromEnv });
    expect((await loadConnection({ env })).server).toBe('https://env.example');
    expect((await loadConnection({ env, kubeconfig: fromFlag })).server).toBe('https://flag.example');
    if (haveKubectl) {
      const view = await kubectlConfigView({
        kubeconfigEnv: fromEnv,
        kubeconfigFlag: fromFlag,
        home: tmp.at('home'),
      });
      expect(kubectlView(view).server).toBe('https://flag.example');
    }
  });

  it('applies the --server, --namespace and --context overrides', async () => {
    const path = await writeEverythingConfig();
    const conn = await loadConnection({
      kubeconfig: path,
      context: 'ctx-cert-data',
      server: 'https://override.example:8443/',
      namespace: 'override-ns',
      env: cleanEnv(),
    });
    expect(conn).toMatchObject({
      server: 'https://override.example:8443',
      namespace: 'override-ns',
      contextName: 'ctx-cert-data',
      caPem: CA_FILE,
      clientCertPem: CERT,
    });
  });
});
