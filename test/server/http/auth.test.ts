import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureStatus } from '../../../src/protocol/status.js';
import {
  Authenticator,
  generateToken,
  parseTokenFile,
  TokenFileError,
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
import { findKubectls, requireTool } from '../../helpers/tools.js';

const execFileAsync = promisify(execFile);

const VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.1' };
const UNAUTHORIZED_BODY =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

const kubectls = await findKubectls();
const kubectl133 = kubectls.find((k) => k.name === 'kubectl.1.33');
const haveKubectl = requireTool('kubectl.1.33', kubectl133 !== undefined);

describe('parseTokenFile', () => {
  it('reads token,user,uid[,"groups"] records, skipping blanks and comments', () => {
    const text = [
      '# static tokens',
      'tok-admin,admin,uid-1,"system:masters,dev"',
      '',
      '  # indented comment',
      'tok-bob, bob ,,ops\r',
      'tok-carol,carol,uid-3',
      'tok-dave,"dave ""the admin""",uid-4," a , ,b "',
    ].join('\n');
    const users = parseTokenFile(text, 'tokens.csv');
    expect([...users.keys()]).toEqual(['tok-admin', 'tok-bob', 'tok-carol', 'tok-dave']);
    expect(users.get('tok-admin')).toEqual({
      name: 'admin',
      uid: 'uid-1',
      groups: ['system:masters', 'dev'],
    });
    expect(users.get('tok-bob')).toEqual({ name: 'bob', groups: ['ops'] });
    expect(users.get('tok-carol')).toEqual({ name: 'carol', uid: 'uid-3', groups: [] });
    expect(users.get('tok-dave')).toEqual({ name: 'dave "the admin"', uid: 'uid-4', groups: ['a', 'b'] });
  });

  it('accepts an empty file', () => {
    expect(parseTokenFile('\n# nothing\n', 'empty.csv').size).toBe(0);
  });

  const secret = 's3cr3t-t0ken-value';
  it.each([
    [
      `ok,a,1\n${secret},bob\n`,
      'token file t.csv, line 2: expected at least 3 columns (token,user,uid[,groups]), found 2',
    ],
    [
      `${secret}\n`,
      'token file t.csv, line 1: expected at least 3 columns (token,user,uid[,groups]), found 1',
    ],
    [',bob,1\n', 'token file t.csv, line 1: empty token'],
    [`${secret}, ,1\n`, 'token file t.csv, line 1: empty user name'],
    [
      `${secret},a,1\n# c\n${secret},b,2\n`,
      'token file t.csv, line 3: duplicate token (first defined on line 1)',
    ],
    [`${secret},a,1,"dev,ops\n`, 'token file t.csv, line 1: unterminated quoted field in column 4'],
    [`${secret},a"b,1\n`, 'token file t.csv, line 1: bare " in unquoted column 2'],
  ])('rejects a bad line with its number and without the token: %j', (text, message) => {
    const err = (() => {
      try {
        parseTokenFile(text, 't.csv');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TokenFileError);
    expect((err as Error).message).toBe(message);
    expect((err as Error).message).not.toContain(secret);
    expect(String((err as Error).stack)).not.toContain(secret);
  });
});

describe('generateToken', () => {
  it('makes distinct URL-safe tokens with at least 32 bytes of entropy', () => {
    const tokens = new Set(Array.from({ length: 50 }, generateToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(t, 'base64url').length).toBeGreaterThanOrEqual(32);
    }
  });
});

describe('tlsClientAuthOptions', () => {
  it('requests but does not require client certificates when a CA is given', () => {
    expect(tlsClientAuthOptions('PEM')).toEqual({ requestCert: true, rejectUnauthorized: false, ca: 'PEM' });
    expect(tlsClientAuthOptions()).toEqual({ requestCert: false });
  });
});

/** The test API server: 401 Status unless authenticated, then /version or an echo of the user. */
function handler(authenticator: Authenticator) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const user = authenticator.authenticate(req);
    res.setHeader('Content-Type', 'application/json');
    if (!user) {
      res.writeHead(401).end(JSON.stringify(failureStatus('Unauthorized', 'Unauthorized')));
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/version') res.end(JSON.stringify(VERSION));
    else res.end(JSON.stringify(user));
  };
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server | ReturnType<typeof createHttpServer>): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

interface Answer {
  status: number;
  body: string;
}

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

describe('Authenticator on other transports and modes', () => {
  it('cannot authenticate anyone over plain http by certificate, and tokens still work', async () => {
    const token = generateToken();
    const authenticator = new Authenticator({
      tokens: new Map([[token, { name: 'admin', groups: [] }]]),
      clientCA: (await generateCertificateAuthority()).certPem,
    });
    const server = createHttpServer(handler(authenticator));
    const port = await listen(server);
    try {
      const fetchStatus = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/version`, { headers }).then(async (r) => ({
          status: r.status,
          body: await r.text(),
        }));
      expect(await fetchStatus({})).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
      expect(await fetchStatus({ Authorization: 'Basic YWRtaW46eA==' })).toMatchObject({ status: 401 });
      expect(await fetchStatus({ Authorization: `bearer ${token}` })).toMatchObject({ status: 200 });
    } finally {
      await close(server);
    }
  });

  it('ignores client certificates entirely when no client CA is configured', async () => {
    const serving = await generateServingCertificates({ hosts: [] });
    const ca = await generateCertificateAuthority();
    const client = await issueClientCertificate(ca, { commonName: 'alice' });
    // The server does verify the certificate (authorized === true), but the Authenticator has no CA of its own.
    const server = createServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        requestCert: true,
        rejectUnauthorized: false,
        ca: ca.certPem,
      },
      handler(new Authenticator({ tokens: new Map() })),
    );
    const port = await listen(server);
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/whoami', agent: false, ca: serving.caCertPem, ...client },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(401);
    } finally {
      await close(server);
    }
  });

  it('treats every request as system:anonymous when disabled', async () => {
    const authenticator = new Authenticator({ tokens: new Map(), disabled: true });
    const server = createHttpServer(handler(authenticator));
    const port = await listen(server);
    try {
      const who = await (await fetch(`http://127.0.0.1:${port}/whoami`)).json();
      expect(who).toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    } finally {
      await close(server);
    }
  });

  it('rejects a client CA bundle without certificates', () => {
    expect(() => new Authenticator({ tokens: new Map(), clientCA: 'garbage' })).toThrow(/no PEM certificate/);
  });
});

// The kubectl gate above relies on these; checked here because this file is its first user.
describe('test helpers: findKubectls and requireTool', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lists the PATH kubectl first, then kubectl.1.* by minor', () => {
    if (kubectls.length === 0) return;
    expect(kubectls[0].name).toBe('kubectl');
    const minors = kubectls.slice(1).map((k) => Number(k.name.replace('kubectl.1.', '')));
    expect(minors).toEqual([...minors].sort((a, b) => a - b));
    // Each is the file of its name, but the reference build's v1.37.2, whose file is `kubectl`.
    expect(kubectls.every((k) => k.path.endsWith(k.name) || k.name === 'kubectl.1.37')).toBe(true);
  });

  it('passes a found tool, fails a missing one under CI and skips it elsewhere', () => {
    expect(requireTool('x', true)).toBe(true);
    vi.stubEnv('CI', 'true');
    expect(() => requireTool('no-such-tool', false)).toThrow(/no-such-tool is required under CI/);
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(requireTool('no-such-tool', false)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('no-such-tool not found'));
    } finally {
      warn.mockRestore();
    }
  });
});
