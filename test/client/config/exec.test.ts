import { readFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConnection } from '../../../src/client/config/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import {
  b64,
  cleanEnv,
  clientNodeAuthorization,
  haveKubectl,
  kubectlGetVersion,
  pem,
  type RecordingServer,
  startRecordingServer,
  TempDir,
} from './helpers.js';

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';

let tmp: TempDir;
let server: RecordingServer | undefined;
beforeEach(async () => {
  tmp = await TempDir.create();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await tmp.remove();
});

interface PluginOptions {
  apiVersion: string;
  /** JS expression for `status`; `run` (1-based invocation count) is in scope. */
  status?: string;
}

/**
 * Writes a real node plugin into `bin/` that counts its runs in `runs`,
 * records what it was given in `seen.json`, and prints an ExecCredential.
 */
async function writePlugin(opts: PluginOptions): Promise<string> {
  const status = opts.status ?? '{ token: "exec-token-" + run }';
  return tmp.script(
    'bin/plugin.cjs',
    `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const runsFile = path.join(__dirname, '..', 'runs');
fs.appendFileSync(runsFile, 'run\\n');
const run = fs.readFileSync(runsFile, 'utf8').trim().split('\\n').length;
fs.writeFileSync(path.join(__dirname, '..', 'seen.json'), JSON.stringify({
  info: process.env.KUBERNETES_EXEC_INFO === undefined ? undefined : JSON.parse(process.env.KUBERNETES_EXEC_INFO),
  args: process.argv.slice(2),
  fromKubeconfig: process.env.FROM_KUBECONFIG,
}));
process.stdout.write(JSON.stringify({ apiVersion: ${JSON.stringify(opts.apiVersion)}, kind: 'ExecCredential', status: ${status} }));
`,
  );
}

async function runs(): Promise<number> {
  const text = await readFile(tmp.at('runs'), 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').length;
}

async function seen(): Promise<{ info: unknown; args: string[]; fromKubeconfig?: string }> {
  return JSON.parse(await readFile(tmp.at('seen.json'), 'utf8'));
}

/** A kubeconfig (in the temp root) for one cluster and one user running `exec`. */
function execConfig(exec: object, cluster: object = { server: 'https://k.example' }, user: object = {}) {
  return tmp.kubeconfig('kubeconfig', {
    'current-context': 'c',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'u', user: { ...user, exec } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  });
}

/** A cluster entry for the recording server. */
function recorded(srv: RecordingServer, extra: object = {}): object {
  return { server: srv.url, 'certificate-authority-data': b64(srv.caPem ?? ''), ...extra };
}

describe('exec plugins', () => {
  it.each([
    [V1, { interactiveMode: 'Never' }],
    [V1BETA1, {}],
  ])('runs a %s plugin like kubectl and client-node do', async (apiVersion, mode) => {
    server = await startRecordingServer(true);
    const plugin = await writePlugin({ apiVersion });
    const exec = {
      apiVersion,
      command: plugin,
      args: ['--flag', 'value'],
      env: [{ name: 'FROM_KUBECONFIG', value: 'yes' }],
      ...mode,
    };
    const path = await execConfig(exec, recorded(server));
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    // Plugins run lazily, on the first request.
    expect(await runs()).toBe(0);
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-1');
    const ourRun = await seen();
    expect(ourRun).toEqual({
      info: { kind: 'ExecCredential', apiVersion, spec: { interactive: false } },
      args: ['--flag', 'value'],
      fromKubeconfig: 'yes',
    });

    if (haveKubectl) {
      await kubectlGetVersion(path, tmp.path);
      // The last request carries the token of the latest run. (The gcloud
      // kubectl dispatcher asks /version first with its own run, then execs
      // the matching kubectl, which runs the plugin again.)
      expect(server.authorizations.at(-1)).toBe(`Bearer exec-token-${await runs()}`);
      // kubectl hands the plugin exactly the same KUBERNETES_EXEC_INFO, args and env.
      expect(await seen()).toEqual(ourRun);
    }

    const kc = new KubeConfig();
    kc.loadFromFile(path);
    expect(await clientNodeAuthorization(kc)).toMatch(/^Bearer exec-token-\d$/);
    // DIFFERENCE: client-node sets no KUBERNETES_EXEC_INFO at all.
    expect((await seen()).info).toBeUndefined();
  });

  it('passes cluster info when provideClusterInfo is set, exactly as kubectl does', async () => {
    server = await startRecordingServer(true);
    const plugin = await writePlugin({ apiVersion: V1 });
    const cluster = recorded(server, {
      'tls-server-name': 'localhost',
      extensions: [
        { name: 'client.authentication.k8s.io/exec', extension: { audience: 'watchmark', nested: { n: 1 } } },
        { name: 'unrelated', extension: { ignored: true } },
      ],
    });
    const path = await execConfig(
      { apiVersion: V1, command: plugin, interactiveMode: 'IfAvailable', provideClusterInfo: true },
      cluster,
    );
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    await conn.credentials.authorization();
    const ourRun = await seen();
    expect(ourRun.info).toEqual({
      kind: 'ExecCredential',
      apiVersion: V1,
      spec: {
        interactive: false,
        cluster: {
          server: server.url,
          'tls-server-name': 'localhost',
          'certificate-authority-data': b64(server.caPem ?? ''),
          config: { audience: 'watchmark', nested: { n: 1 } },
        },
      },
    });
    if (haveKubectl) {
      await kubectlGetVersion(path, tmp.path);
      expect((await seen()).info).toEqual(ourRun.info);
    }
  });

  it('caches until shortly before expirationTimestamp, sharing one run between concurrent callers', async () => {
    const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
    const plugin = await writePlugin({
      apiVersion: V1,
      status: '{ token: "exec-token-" + run, expirationTimestamp: "2030-01-01T01:00:00Z" }',
    });
    const path = await execConfig({ apiVersion: V1, command: plugin, interactiveMode: 'Never' });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv(), clock });
    const first = await Promise.all(Array.from({ length: 5 }, () => conn.credentials.authorization()));
    expect(new Set(first)).toEqual(new Set(['Bearer exec-token-1']));
    expect(await runs()).toBe(1);

    clock.advance(60 * 60_000 - 11_000); // 11 s before expiry: still fresh
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-1');
    clock.advance(2_000); // 9 s before expiry: refreshed early
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-2');
    expect(await runs()).toBe(2);
  });

  it('keeps a credential without expiry until invalidate() (client-node re-runs every time)', async () => {
    const plugin = await writePlugin({ apiVersion: V1BETA1 });
    const path = await execConfig({ apiVersion: V1BETA1, command: plugin });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-1');
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-1');
    conn.credentials.invalidate();
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-2');
    expect(await runs()).toBe(2);

    // DIFFERENCE: client-node caches only credentials that carry an
    // expirationTimestamp, so without one it runs the plugin per request.
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    await clientNodeAuthorization(kc);
    await clientNodeAuthorization(kc);
    expect(await runs()).toBe(4);
  });

  it('supplies client certificates from the plugin, unless the kubeconfig has its own', async () => {
    const cert = pem('CERTIFICATE', 'exec cert');
    const key = pem('PRIVATE KEY', 'exec key');
    const plugin = await writePlugin({
      apiVersion: V1,
      status: `{ clientCertificateData: ${JSON.stringify(cert)}, clientKeyData: ${JSON.stringify(key)} }`,
    });
    const exec = { apiVersion: V1, command: plugin, interactiveMode: 'Never' };
    const conn = await loadConnection({ kubeconfig: await execConfig(exec), env: cleanEnv() });
    expect(await conn.credentials.clientCertificate()).toEqual({ certPem: cert, keyPem: key });
    expect(await conn.credentials.authorization()).toBeUndefined();
    expect(await runs()).toBe(1);

    const staticCert = pem('CERTIFICATE', 'static cert');
    const withStatic = await loadConnection({
      kubeconfig: await execConfig(exec, undefined, {
        'client-certificate-data': b64(staticCert),
        'client-key-data': b64(pem('PRIVATE KEY', 'static key')),
        token: 'static-token',
      }),
      env: cleanEnv(),
    });
    // Static credentials win over the plugin's; the plugin is not even run.
    expect(withStatic.clientCertPem).toBe(staticCert);
    expect(await withStatic.credentials.clientCertificate()).toBeUndefined();
    expect(await withStatic.credentials.authorization()).toBe('Bearer static-token');
    expect(await runs()).toBe(1);
  });

  it('resolves a command with a slash against the kubeconfig directory, and a bare name through PATH', async () => {
    server = await startRecordingServer(true);
    await writePlugin({ apiVersion: V1 });
    const relative = await execConfig(
      { apiVersion: V1, command: './bin/plugin.cjs', interactiveMode: 'Never' },
      recorded(server),
    );
    const conn = await loadConnection({ kubeconfig: relative, env: cleanEnv() });
    expect(await conn.credentials.authorization()).toBe('Bearer exec-token-1');
    if (haveKubectl) {
      await kubectlGetVersion(relative, tmp.path);
      expect(server.authorizations.at(-1)).toBe(`Bearer exec-token-${await runs()}`);
    }

    const bare = await execConfig({ apiVersion: V1, command: 'plugin.cjs', interactiveMode: 'Never' });
    const viaPath = await loadConnection({
      kubeconfig: bare,
      env: cleanEnv({ PATH: `${tmp.at('bin')}:${process.env.PATH}` }),
    });
    expect(await viaPath.credentials.authorization()).toMatch(/^Bearer exec-token-\d$/);
  });
});

describe('exec plugin failures', () => {
  const SECRET = 'tok-SHOULD-NEVER-BE-PRINTED';

  async function failing(kind: 'exit' | 'garbage' | 'version' | 'empty' | 'halfcert'): Promise<string> {
    const scripts = {
      // Prints a credential and then fails: the credential must not surface.
      exit: `echo '{"status":{"token":"${SECRET}"}}'\necho '' >&2\necho 'error: refresh failed for profile dev' >&2\necho 'second line' >&2\nexit 3`,
      garbage: `echo 'token=${SECRET}'`,
      version: `echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"${SECRET}"}}'`,
      empty: `echo '{"apiVersion":"${V1}","kind":"ExecCredential","status":{}}'`,
      halfcert: `echo '{"apiVersion":"${V1}","kind":"ExecCredential","status":{"clientCertificateData":"${SECRET}"}}'`,
    };
    const plugin = await tmp.script('fail.sh', `#!/bin/sh\n${scripts[kind]}\n`);
    return execConfig({ apiVersion: V1, command: plugin, interactiveMode: 'Never' });
  }

  async function failure(path: string): Promise<ConfigError> {
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    const err = await conn.credentials.authorization().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).not.toContain(SECRET);
    return err as ConfigError;
  }

  it('reports the command, exit code and first stderr line of a failing plugin', async () => {
    const path = await failing('exit');
    const err = await failure(path);
    expect(err.message).toBe(
      `exec plugin "${tmp.at('fail.sh')}" failed with exit code 3: error: refresh failed for profile dev`,
    );
    if (haveKubectl) {
      server = await startRecordingServer(true);
      const pointed = await execConfig(
        { apiVersion: V1, command: tmp.at('fail.sh'), interactiveMode: 'Never' },
        recorded(server),
      );
      await expect(kubectlGetVersion(pointed, tmp.path)).rejects.toThrow(/exit code 3/);
    }
  });

  it.each([
    ['garbage', /did not print an ExecCredential as JSON on stdout$/],
    [
      'version',
      /returned apiVersion "client.authentication.k8s.io\/v1beta1", but the kubeconfig asks for .*\/v1$/,
    ],
    ['empty', /returned neither a token nor a client certificate and key$/],
    ['halfcert', /returned only one of clientCertificateData and clientKeyData$/],
  ] as const)('rejects %s output without quoting it', async (kind, message) => {
    const err = await failure(await failing(kind));
    expect(err.message).toMatch(message);
  });

  it('names a missing command and its installHint', async () => {
    const path = await execConfig({
      apiVersion: V1,
      command: 'watchmark-no-such-plugin',
      interactiveMode: 'Never',
      installHint: 'Install it with:\n  brew install no-such-plugin\n',
    });
    const err = await failure(path);
    expect(err.message).toBe(
      'exec plugin "watchmark-no-such-plugin" not found (is it installed and on PATH?): ' +
        'Install it with: brew install no-such-plugin',
    );
  });

  it('kills a plugin that hangs, including what it started', async () => {
    const pidFile = tmp.at('sleep.pid');
    const plugin = await tmp.script('hang.sh', `#!/bin/sh\nsleep 30 &\necho $! > ${pidFile}\nwait\n`);
    const path = await execConfig({ apiVersion: V1, command: plugin, interactiveMode: 'Never' });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv(), execTimeoutMs: 500 });
    // Had it waited for the plugin's 30 s sleep, the error would be another (no ExecCredential), after the test's timeout.
    await expect(conn.credentials.authorization()).rejects.toThrow(
      new ConfigError(`exec plugin "${plugin}" did not finish within 500 ms and was killed`),
    );
    const sleepPid = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => isAlive(sleepPid), { timeout: 3_000 }).toBe(false);
  });

  it.each([
    [{ apiVersion: V1 }, /interactiveMode must be specified for client.authentication.k8s.io\/v1$/],
    [
      { apiVersion: V1, interactiveMode: 'Always' },
      /has interactiveMode Always, but watchmark runs plugins without a terminal$/,
    ],
    [{ apiVersion: V1, interactiveMode: 'Sometimes' }, /has unknown interactiveMode "Sometimes"$/],
    [
      { apiVersion: 'client.authentication.k8s.io/v1alpha1', interactiveMode: 'Never' },
      /has apiVersion "client.authentication.k8s.io\/v1alpha1"; supported: /,
    ],
  ])('refuses exec config %j at load time', async (exec, message) => {
    const path = await execConfig({ command: '/bin/true', ...exec });
    const err = await loadConnection({ kubeconfig: path, env: cleanEnv() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^user "u": exec plugin "\/bin\/true"/);
    expect((err as Error).message).toMatch(message);
  });

  it.skipIf(!haveKubectl)('matches kubectl in refusing a v1 plugin without interactiveMode', async () => {
    server = await startRecordingServer(true);
    const path = await execConfig({ apiVersion: V1, command: '/bin/true' }, recorded(server));
    await expect(kubectlGetVersion(path, tmp.path)).rejects.toThrow(
      /interactiveMode must be specified for u/,
    );
  });
});

/** Whether `pid` still runs; a zombie awaiting its reaper counts as gone. */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return false;
  // Field 3, after the parenthesised command name, is the state.
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}
