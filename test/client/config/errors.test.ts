import { mkdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConnection } from '../../../src/client/config/index.js';
import { b64, cleanEnv, haveKubectl, kubectlGetVersion, pem, TempDir } from './helpers.js';

/** Planted in every broken kubeconfig: it must never show up in a message. */
const SECRET = 'tok-SECRET-do-not-print';
const CA = pem('CERTIFICATE', 'ca');

let tmp: TempDir;
beforeEach(async () => {
  tmp = await TempDir.create();
});
afterEach(async () => {
  await tmp.remove();
});

/** A one-context kubeconfig (server https://127.0.0.1:1: refused at once if kubectl gets that far). */
function config(cluster: object, user: object, context: object = {}): object {
  return {
    'current-context': 'c',
    clusters: [{ name: 'cl', cluster: { server: 'https://127.0.0.1:1', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'c', context: { cluster: 'cl', user: 'u', ...context } }],
  };
}

interface BrokenCase {
  name: string;
  /** A kubeconfig object, or raw text. */
  file: object | string;
  /** Our message; `PATH` stands for the kubeconfig's path. */
  message: string | RegExp;
  /** What kubectl says for the same file, when it refuses it too. */
  kubectl?: RegExp;
  /** Extra options for loadConnection. */
  opts?: { context?: string };
}

const cases: BrokenCase[] = [
  {
    name: 'unknown --context',
    file: config({}, { token: SECRET }),
    opts: { context: 'nope' },
    message: 'context "nope" not found in kubeconfig (PATH)',
    kubectl: /context "nope" does not exist/,
  },
  {
    name: 'a current-context that does not exist',
    file: { ...config({}, { token: SECRET }), 'current-context': 'gone' },
    message: 'context "gone" not found in kubeconfig (PATH)',
  },
  {
    // DIFFERENCE (deliberate): kubectl silently falls back to localhost:8080.
    name: 'a context naming a missing cluster',
    file: config({}, { token: SECRET }, { cluster: 'nowhere' }),
    message: 'context "c" refers to cluster "nowhere", which is not in kubeconfig (PATH)',
  },
  {
    // DIFFERENCE (deliberate): kubectl goes on anonymously (and prompts for a password on a terminal).
    name: 'a context naming a missing user',
    file: config({}, { token: SECRET }, { user: 'nobody' }),
    message: 'context "c" refers to user "nobody", which is not in kubeconfig (PATH)',
  },
  {
    // kubectl's own message dumps the whole list, tokens included; ours names the duplicate only.
    name: 'a name twice in one file',
    file: {
      ...config({}, { token: SECRET }),
      users: [
        { name: 'u', user: { token: SECRET } },
        { name: 'u', user: { token: SECRET } },
      ],
    },
    message: 'kubeconfig PATH: users has the name "u" twice',
    kubectl: /duplicate name "u"/,
  },
  {
    name: 'malformed base64',
    file: config({ 'certificate-authority-data': 'not*base64' }, { token: SECRET }),
    message: 'kubeconfig PATH: clusters["cl"].cluster.certificate-authority-data is not valid base64',
    kubectl: /illegal base64 data/,
  },
  {
    name: 'a number where a string belongs',
    file: 'current-context: c\nusers:\n- name: u\n  user:\n    token: 12345\n',
    message: 'kubeconfig PATH: users["u"].user.token must be a string',
    kubectl: /cannot unmarshal number into Go struct field AuthInfo.users.user.token of type string/,
  },
  {
    name: 'a YAML syntax error on the line holding a token',
    file: `current-context: c\nusers:\n- name: u\n  user: {token: [${SECRET}\n`,
    message: /^kubeconfig PATH is not valid YAML: [A-Z_]+ at line \d+, column \d+$/,
    kubectl: /error loading config file/,
  },
  {
    name: 'insecure-skip-tls-verify with a CA',
    file: config(
      { 'insecure-skip-tls-verify': true, 'certificate-authority-data': b64(CA) },
      { token: SECRET },
    ),
    message: 'cluster "cl" sets both insecure-skip-tls-verify and a certificate authority; choose one',
    kubectl: /specifying a root certificates file with the insecure flag is not allowed/,
  },
  {
    name: 'a token and basic auth together',
    file: config({}, { token: SECRET, username: 'admin', password: SECRET }),
    message: 'user "u" sets both a bearer token and username/password; keep one',
    kubectl: /more than one authentication method found for u/,
  },
  {
    name: 'a client certificate without its key',
    file: config({}, { 'client-certificate-data': b64(pem('CERTIFICATE', 'c')) }),
    message: 'user "u" has a client certificate but no client-key(-data)',
    kubectl: /client-key-data or client-key must be specified for u/,
  },
  {
    // DIFFERENCE (deliberate): kubectl ignores a lone key and goes on without a certificate.
    name: 'a client key without its certificate',
    file: config({}, { 'client-key-data': b64(pem('PRIVATE KEY', SECRET)) }),
    message: 'user "u" has a client key but no client-certificate(-data)',
  },
  {
    name: 'client-certificate and client-certificate-data together',
    file: config(
      {},
      { 'client-certificate-data': b64('x'), 'client-certificate': '/x.crt', 'client-key': '/x.key' },
    ),
    message: 'user "u" sets both client-certificate-data and client-certificate; keep one',
    kubectl: /client-cert-data and client-cert are both specified for u/,
  },
  {
    // DIFFERENCE (deliberate): kubectl still has an oidc provider; this library supports exec plugins only.
    name: 'an auth-provider',
    file: config({}, { 'auth-provider': { name: 'oidc', config: { 'id-token': SECRET } } }),
    message:
      /^user "u" uses auth-provider "oidc", which watchmark does not support; use an exec plugin instead/,
  },
  {
    // DIFFERENCE (deliberate): kubectl sends requests for a scheme-less server over plain http.
    name: 'a server without a scheme',
    file: config({ server: '127.0.0.1:6443' }, { token: SECRET }),
    message: 'cluster "cl" server "127.0.0.1:6443" must start with https:// (or http://)',
  },
  {
    name: 'a cluster without a server',
    file: { ...config({}, { token: SECRET }), clusters: [{ name: 'cl', cluster: {} }] },
    message: 'cluster "cl" has no server',
  },
  {
    name: 'a proxy-url of an unsupported scheme',
    file: config({ 'proxy-url': 'ftp://proxy.example:21' }, { token: SECRET }),
    message: 'cluster "cl" proxy-url must be an http, https or socks5 URL with a host',
    kubectl: /unsupported scheme "ftp"/,
  },
  {
    name: 'a certificate-authority file that does not exist',
    file: config({ 'certificate-authority': 'missing-ca.crt' }, { token: SECRET }),
    message: /^cannot read certificate-authority of cluster "cl" \/.*\/missing-ca\.crt: ENOENT$/,
    kubectl: /unable to read certificate-authority/,
  },
  {
    // Found at the first request instead, a watch would retry it forever.
    name: 'certificate-authority-data that is not PEM',
    file: config({ 'certificate-authority-data': b64(SECRET) }, { token: SECRET }),
    message:
      'certificate-authority-data of cluster "cl" holds no PEM block (-----BEGIN ...----- to -----END ...-----)',
    kubectl: /unable to load root certificates: unable to parse bytes as PEM block/,
  },
  {
    name: 'client-certificate-data that is not PEM',
    file: config(
      {},
      {
        'client-certificate-data': b64('not a certificate'),
        'client-key-data': b64(pem('PRIVATE KEY', SECRET)),
      },
    ),
    message:
      'client-certificate-data of user "u" holds no PEM block (-----BEGIN ...----- to -----END ...-----)',
    kubectl: /failed to find any PEM data in certificate input/,
  },
  {
    name: 'a certificate-authority file that is not PEM',
    file: config({ 'certificate-authority': 'kubeconfig' }, { token: SECRET }),
    // The kubeconfig itself: a file that is there, and is no PEM.
    message:
      'certificate-authority PATH of cluster "cl" holds no PEM block (-----BEGIN ...----- to -----END ...-----)',
    kubectl: /unable to load root certificates: unable to parse bytes as PEM block/,
  },
  {
    name: 'no current-context',
    file: { ...config({}, { token: SECRET }), 'current-context': '' },
    message: 'kubeconfig (PATH) has no current-context: pass --context or run kubectl config use-context',
  },
];

describe('ConfigError messages', () => {
  it.each(cases)('$name', async ({ file, message, opts }) => {
    const path =
      typeof file === 'string'
        ? await tmp.write('kubeconfig', file)
        : await tmp.kubeconfig('kubeconfig', file);
    const err = await loadConnection({ kubeconfig: path, env: cleanEnv({ HOME: tmp.path }), ...opts }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const text = (err as ConfigError).message;
    if (typeof message === 'string') expect(text).toBe(message.replace('PATH', path));
    else expect(text.replace(path, 'PATH')).toMatch(message);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('\n');
    expect((err as ConfigError).name).toBe('ConfigError');
  });

  it.skipIf(!haveKubectl).each(cases.filter((c) => c.kubectl !== undefined))(
    'kubectl refuses it too: $name',
    async ({ file, kubectl, opts }) => {
      const path =
        typeof file === 'string'
          ? await tmp.write('kubeconfig', file)
          : await tmp.kubeconfig('kubeconfig', file);
      const args = opts?.context ? ['--context', opts.context] : [];
      await expect(kubectlGetVersion(path, tmp.path, args)).rejects.toThrow(kubectl);
    },
  );
});

describe('empty *-data fields', () => {
  it('mean unset, as in client-go: no PEM check, no conflict with insecure-skip-tls-verify', async () => {
    const path = await tmp.kubeconfig(
      'kubeconfig',
      config(
        { 'certificate-authority-data': '', 'insecure-skip-tls-verify': true },
        { token: SECRET, 'client-certificate-data': '', 'client-key-data': '' },
      ),
    );
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv({ HOME: tmp.path }) });
    expect(conn).toMatchObject({ insecureSkipTlsVerify: true });
    expect(conn.caPem).toBeUndefined();
    expect(conn.clientCertPem).toBeUndefined();
  });
});

describe('when no kubeconfig applies', () => {
  it('says where it looked when nothing is found and no pod is around', async () => {
    const env = cleanEnv({ HOME: tmp.path });
    await expect(loadConnection({ env, inClusterRoot: tmp.at('no-sa') })).rejects.toThrow(
      new ConfigError(
        `no kubeconfig found: set KUBECONFIG or --kubeconfig, or run in a cluster (looked for ${tmp.at('.kube/config')})`,
      ),
    );
    const list = cleanEnv({ KUBECONFIG: `${tmp.at('a')}:${tmp.at('b')}` });
    await expect(loadConnection({ env: list, inClusterRoot: tmp.at('no-sa') })).rejects.toThrow(
      /^no kubeconfig found: set KUBECONFIG or --kubeconfig, or run in a cluster \(looked for .*\/a, .*\/b\)$/,
    );
  });

  it('requires an explicit --kubeconfig to exist (kubectl too)', async () => {
    const missing = tmp.at('missing.yaml');
    await expect(loadConnection({ kubeconfig: missing, env: cleanEnv() })).rejects.toThrow(
      new ConfigError(`kubeconfig ${missing} does not exist`),
    );
  });

  it('reports a kubeconfig path that cannot be read as a file', async () => {
    const dir = tmp.at('a-directory');
    await mkdir(dir);
    await expect(loadConnection({ env: cleanEnv({ KUBECONFIG: dir }) })).rejects.toThrow(
      new ConfigError(`cannot read kubeconfig ${dir}: EISDIR`),
    );
  });

  it('talks to a bare --server anonymously', async () => {
    const conn = await loadConnection({
      server: 'https://bare.example:6443/',
      env: cleanEnv({ HOME: tmp.path }),
      inClusterRoot: tmp.at('no-sa'),
    });
    expect(conn).toMatchObject({
      server: 'https://bare.example:6443',
      namespace: 'default',
      insecureSkipTlsVerify: false,
    });
    expect(conn.contextName).toBeUndefined();
    expect(await conn.credentials.authorization()).toBeUndefined();
  });
});
