import { mkdtemp } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Authenticator,
  generateToken,
  parseTokenFile,
  tlsClientAuthOptions,
  type UserInfo,
} from '../../../src/server/http/auth.js';
import { buildKubeconfig, writeKubeconfig } from '../../../src/server/pki/kubeconfig.js';
import {
  type CertificateAuthority,
  type ClientCertificate,
  generateCertificateAuthority,
  generateServingCertificates,
  issueClientCertificate,
  type ServingCertificates,
} from '../../../src/server/pki/tls.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import {
  type Answer,
  close,
  execFileAsync,
  handler,
  haveKubectl,
  kubectl133,
  kubectls,
  listen,
  UNAUTHORIZED_BODY,
  VERSION,
} from './auth-fixture.js';

describe('Authenticator behind a real https server', () => {
  const token = generateToken();
  let serving: ServingCertificates;
  let clientCA: CertificateAuthority;
  let alice: ClientCertificate;
  let mallory: ClientCertificate;
  let server: Server;
  let port: number;
  let workDir: string;

  const tempDir = tempDirForFile('watchmark-auth-');
  beforeAll(async () => {
    workDir = tempDir();
    serving = await generateServingCertificates({ hosts: ['localhost'] });
    clientCA = await generateCertificateAuthority('test-client-ca');
    alice = await issueClientCertificate(clientCA, { commonName: 'alice', organizations: ['dev', 'ops'] });
    const rogueCA = await generateCertificateAuthority('rogue-ca');
    mallory = await issueClientCertificate(rogueCA, {
      commonName: 'mallory',
      organizations: ['system:masters'],
    });
    const tokens = parseTokenFile(`${token},admin,uid-admin,"system:masters"\n`, 'tokens.csv');
    const authenticator = new Authenticator({ tokens, clientCA: clientCA.certPem });
    server = createServer(
      { cert: serving.certPem, key: serving.keyPem, ...tlsClientAuthOptions(clientCA.certPem) },
      handler(authenticator),
    );
    port = await listen(server);
  });

  afterAll(async () => {
    await close(server);
  });

  function get(
    path: string,
    opts: { ca?: string; token?: string; client?: ClientCertificate } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          headers,
          agent: false,
          ca: opts.ca ?? serving.caCertPem,
          cert: opts.client?.certPem,
          key: opts.client?.keyPem,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('answers /version to a valid bearer token', async () => {
    const answer = await get('/version?timeout=32s', { token });
    expect(answer).toEqual({ status: 200, body: JSON.stringify(VERSION) });
    const who = JSON.parse((await get('/whoami', { token })).body) as UserInfo;
    expect(who).toEqual({
      name: 'admin',
      uid: 'uid-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it('answers 401 with the Unauthorized Status without credentials or with a wrong token', async () => {
    expect(await get('/version')).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
    const wrong = await get('/version', { token: generateToken() });
    expect(wrong).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
    expect(await get('/version', { token: `${token}x` })).toMatchObject({ status: 401 });
    expect(await get('/version', { token: token.slice(0, -1) })).toMatchObject({ status: 401 });
  });

  it('refuses the connection when the client does not trust the CA', async () => {
    const other = await generateServingCertificates({ hosts: [] });
    await expect(get('/version', { ca: other.caCertPem, token })).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });

  it('authenticates a client certificate from the client CA as its CN with O groups', async () => {
    const who = JSON.parse((await get('/whoami', { client: alice })).body) as UserInfo;
    expect(who).toEqual({ name: 'alice', groups: ['dev', 'ops', 'system:authenticated'] });
    // Union semantics, as kube-apiserver: a good certificate wins over a bad token.
    const both = JSON.parse((await get('/whoami', { client: alice, token: 'wrong' })).body) as UserInfo;
    expect(both.name).toBe('alice');
  });

  it('rejects a client certificate from another CA, but still honours a token next to it', async () => {
    expect(await get('/whoami', { client: mallory })).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
    const who = JSON.parse((await get('/whoami', { client: mallory, token })).body) as UserInfo;
    expect(who.name).toBe('admin');
  });

  it.skipIf(!haveKubectl)('serves the real kubectl.1.33 with a bearer-token kubeconfig', async () => {
    const kubeconfig = join(workDir, 'token', 'config');
    await writeKubeconfig(
      kubeconfig,
      buildKubeconfig({ server: `https://127.0.0.1:${port}`, caPem: serving.caCertPem, token }),
    );
    const out = await kubectl(kubectl133!.path, kubeconfig, ['version', '-o', 'json']);
    expect(out.code, out.stderr).toBe(0);
    const parsed = JSON.parse(out.stdout) as { serverVersion: { gitVersion: string } };
    expect(parsed.serverVersion.gitVersion).toBe('v1.33.1');
  });

  it.skipIf(!haveKubectl)('serves the real kubectl.1.33 with a client-certificate kubeconfig', async () => {
    const kubeconfig = join(workDir, 'cert', 'config');
    await writeKubeconfig(
      kubeconfig,
      buildKubeconfig({
        server: `https://localhost:${port}`,
        caPem: serving.caCertPem,
        clientCertPem: alice.certPem,
        clientKeyPem: alice.keyPem,
      }),
    );
    const out = await kubectl(kubectl133!.path, kubeconfig, ['version', '-o', 'json']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout).serverVersion.gitVersion).toBe('v1.33.1');
  });

  it.skipIf(!haveKubectl)('makes the real kubectl.1.33 fail with Unauthorized on a wrong token', async () => {
    const kubeconfig = join(workDir, 'wrong', 'config');
    const wrongToken = generateToken();
    await writeKubeconfig(
      kubeconfig,
      buildKubeconfig({ server: `https://127.0.0.1:${port}`, caPem: serving.caCertPem, token: wrongToken }),
    );
    const out = await kubectl(kubectl133!.path, kubeconfig, ['version', '-o', 'json']);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/Unauthorized|must be logged in/);
    expect(out.stderr).not.toContain(wrongToken);
  });

  it.skipIf(!haveKubectl)(
    'authenticates every kubectl found (PATH dispatcher and kubectl.1.*)',
    async () => {
      const kubeconfig = join(workDir, 'all', 'config');
      await writeKubeconfig(
        kubeconfig,
        buildKubeconfig({ server: `https://127.0.0.1:${port}`, caPem: serving.caCertPem, token }),
      );
      // Sequential: each run is a 50 MB Go binary, and the server shares this process.
      for (const { name, path } of kubectls) {
        const out = await kubectl(path, kubeconfig, ['version', '-o', 'json']);
        expect(out.code, `${name}: ${out.stderr}`).toBe(0);
        expect(JSON.parse(out.stdout).serverVersion.gitVersion, name).toBe('v1.33.1');
      }
    },
    120_000,
  );

  /** Runs kubectl asynchronously (the server lives in this process) with a fresh HOME and cache dir. */
  async function kubectl(
    binary: string,
    kubeconfig: string,
    args: string[],
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const home = await mkdtemp(join(workDir, 'home-'));
    const argv = ['--kubeconfig', kubeconfig, '--cache-dir', join(home, 'cache'), ...args];
    try {
      const { stdout, stderr } = await execFileAsync(binary, argv, {
        timeout: 20_000,
        env: { ...process.env, HOME: home, KUBECONFIG: '' },
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: unknown; stdout?: string; stderr?: string; killed?: boolean };
      if (typeof e.code !== 'number') throw err; // spawn failure or timeout, not a kubectl exit status
      return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }
});
