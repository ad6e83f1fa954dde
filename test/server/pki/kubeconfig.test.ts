import { execFile } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildKubeconfig, writeKubeconfig } from '../../../src/server/pki/kubeconfig.js';
import { generateCertificateAuthority, issueClientCertificate } from '../../../src/server/pki/tls.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';

const execFileAsync = promisify(execFile);

const kubectl133 = (await findKubectls()).find((k) => k.name === 'kubectl.1.33');
const haveKubectl = requireTool('kubectl.1.33', kubectl133 !== undefined);

const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const TOKEN = 'kubeconfig-test-token-0123456789';

let dir: string;
const tempDir = tempDirForFile('watchmark-kubeconfig-');
beforeAll(async () => {
  dir = tempDir();
});

describe('buildKubeconfig', () => {
  it('writes one cluster, user and context, made current', () => {
    const config = parse(
      buildKubeconfig({ server: 'https://127.0.0.1:6443', caPem: CA_PEM, token: TOKEN, namespace: 'team-a' }),
    );
    expect(config).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'watchmark',
          cluster: {
            server: 'https://127.0.0.1:6443',
            'certificate-authority-data': Buffer.from(CA_PEM).toString('base64'),
          },
        },
      ],
      users: [{ name: 'watchmark', user: { token: TOKEN } }],
      contexts: [
        { name: 'watchmark', context: { cluster: 'watchmark', user: 'watchmark', namespace: 'team-a' } },
      ],
      'current-context': 'watchmark',
      preferences: {},
    });
  });

  it('supports client certificates, insecure mode and a custom name', () => {
    const config = parse(
      buildKubeconfig({
        server: 'https://localhost:1',
        insecureSkipTlsVerify: true,
        clientCertPem: 'CERT',
        clientKeyPem: 'KEY',
        name: 'dev',
      }),
    );
    expect(config.clusters).toEqual([
      { name: 'dev', cluster: { server: 'https://localhost:1', 'insecure-skip-tls-verify': true } },
    ]);
    expect(config.users).toEqual([
      { name: 'dev', user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' } },
    ]);
    expect(config['current-context']).toBe('dev');
  });

  // The file is written without a YAML library: values YAML would read as
  // something else (a boolean, a number, a mapping) must come back as the same strings.
  it.each(['true', 'no', '123', '1e3', '-token', 'a: b', '#x', '"q"', "it's", 'x\ny', ''])(
    'reads %j back as the same string',
    (value) => {
      const config = parse(
        buildKubeconfig({ server: `https://h/${value}`, token: value, namespace: value, name: value || 'n' }),
      );
      expect(config.users[0].user.token).toBe(value);
      expect(config.contexts[0].context.namespace).toBe(value);
      expect(config.clusters[0].cluster.server).toBe(`https://h/${value}`);
      expect(config['current-context']).toBe(value || 'n');
    },
  );

  it.each([
    [{ server: '', token: TOKEN }, /server URL is empty/],
    [{ server: 'https://x', caPem: CA_PEM, insecureSkipTlsVerify: true, token: TOKEN }, /mutually exclusive/],
    [{ server: 'https://x', clientCertPem: 'CERT', token: TOKEN }, /must be given together/],
  ])('rejects inconsistent options without echoing the token (%#)', (opts, message) => {
    let error: unknown;
    try {
      buildKubeconfig(opts);
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(TOKEN);
  });
});

describe('writeKubeconfig', () => {
  it('creates the parent directory and the file with mode 0600', async () => {
    const path = join(dir, 'nested', 'deeper', 'config');
    await writeKubeconfig(path, 'apiVersion: v1\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('apiVersion: v1\n');
  });

  it('narrows an existing world-readable file to 0600 and replaces its content', async () => {
    const path = join(dir, 'existing');
    await writeFile(path, 'old content that is longer than the new one\n', { mode: 0o644 });
    expect((await stat(path)).mode & 0o777).toBe(0o644);
    await writeKubeconfig(path, 'new\n');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('new\n');
  });
});

describe.skipIf(!haveKubectl)('the real kubectl.1.33 reads the generated kubeconfig', () => {
  async function configView(path: string, args: string[]): Promise<Record<string, unknown>> {
    const home = await mkdtemp(join(dir, 'home-'));
    const { stdout } = await execFileAsync(
      kubectl133!.path,
      ['--kubeconfig', path, '--cache-dir', join(home, 'cache'), 'config', 'view', '-o', 'json', ...args],
      { timeout: 20_000, env: { ...process.env, HOME: home, KUBECONFIG: '' } },
    );
    return JSON.parse(stdout);
  }

  it('finds server, CA, token, client cert, namespace and current context', async () => {
    const ca = await generateCertificateAuthority();
    const client = await issueClientCertificate(ca, { commonName: 'alice' });
    const path = join(dir, 'kubectl', 'config');
    await writeKubeconfig(
      path,
      buildKubeconfig({
        server: 'https://127.0.0.1:6443',
        caPem: ca.certPem,
        token: TOKEN,
        clientCertPem: client.certPem,
        clientKeyPem: client.keyPem,
        namespace: 'team-a',
      }),
    );
    const raw = await configView(path, ['--raw']);
    expect(raw['current-context']).toBe('watchmark');
    expect(raw.clusters).toEqual([
      {
        name: 'watchmark',
        cluster: {
          server: 'https://127.0.0.1:6443',
          'certificate-authority-data': Buffer.from(ca.certPem).toString('base64'),
        },
      },
    ]);
    expect(raw.users).toEqual([
      {
        name: 'watchmark',
        user: {
          token: TOKEN,
          'client-certificate-data': Buffer.from(client.certPem).toString('base64'),
          'client-key-data': Buffer.from(client.keyPem).toString('base64'),
        },
      },
    ]);
    expect(raw.contexts).toEqual([
      { name: 'watchmark', context: { cluster: 'watchmark', user: 'watchmark', namespace: 'team-a' } },
    ]);
    // Without --raw kubectl redacts the secrets: proof it recognised them as credentials.
    const redacted = await configView(path, []);
    expect(JSON.stringify(redacted)).not.toContain(TOKEN);
    expect((redacted.users as { user: { token: string } }[])[0].user.token).toBe('REDACTED');
  });
});
