import { rm, writeFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConnection, TokenFileCredentials } from '../../../src/client/config/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import {
  b64,
  cleanEnv,
  clientNodeAuthorization,
  haveKubectl,
  kubectlGetVersion,
  type RecordingServer,
  startRecordingServer,
  TempDir,
} from './helpers.js';

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

/** A kubeconfig at `rel` whose only user is `user`, pointing at `url` (trusting `caPem`). */
function userConfig(rel: string, url: string, caPem: string | undefined, user: object): Promise<string> {
  const cluster: Record<string, unknown> = { server: url };
  if (caPem !== undefined) cluster['certificate-authority-data'] = b64(caPem);
  return tmp.kubeconfig(rel, {
    'current-context': 'c',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  });
}

/** The Authorization header kubectl sends to `server` for this kubeconfig. */
async function kubectlSends(srv: RecordingServer, kubeconfig: string): Promise<string | undefined> {
  const before = srv.authorizations.length;
  await kubectlGetVersion(kubeconfig, tmp.path);
  return srv.authorizations[before];
}

describe('token files', () => {
  it('reads tokenFile relative to the kubeconfig, trimmed, and sends what kubectl sends', async () => {
    server = await startRecordingServer(true);
    await tmp.write('conf/secrets/token', '  rotating-token-1\n');
    const path = await userConfig('conf/kubeconfig', server.url, server.caPem, {
      tokenFile: 'secrets/token',
    });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(await conn.credentials.authorization()).toBe('Bearer rotating-token-1');
    if (haveKubectl) expect(await kubectlSends(server, path)).toBe('Bearer rotating-token-1');
    // DIFFERENCE: client-node reads a `token-file` key (not kubeconfig's `tokenFile`),
    // so it sends no credentials for this user at all.
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    expect(await clientNodeAuthorization(kc)).toBeUndefined();
  });

  it('prefers tokenFile over token, and falls back to token while the file is unreadable (as kubectl)', async () => {
    server = await startRecordingServer(true);
    const tokenPath = await tmp.write('token', 'from-file');
    const path = await userConfig('kubeconfig', server.url, server.caPem, {
      token: 'from-config',
      tokenFile: tokenPath,
    });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(await conn.credentials.authorization()).toBe('Bearer from-file');
    if (haveKubectl) expect(await kubectlSends(server, path)).toBe('Bearer from-file');

    await rm(tokenPath);
    conn.credentials.invalidate();
    expect(await conn.credentials.authorization()).toBe('Bearer from-config');
    const fresh = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(await fresh.credentials.authorization()).toBe('Bearer from-config');
    if (haveKubectl) expect(await kubectlSends(server, path)).toBe('Bearer from-config');
  });

  it('fails loading when a tokenFile alone cannot be read, naming the path (kubectl fails too)', async () => {
    const missing = tmp.at('no-such-token');
    const path = await userConfig('kubeconfig', 'https://127.0.0.1:1', undefined, { tokenFile: missing });
    const err = await loadConnection({ kubeconfig: path, env: cleanEnv() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(`cannot read token file ${missing}: ENOENT`);
    if (haveKubectl) await expect(kubectlGetVersion(path, tmp.path)).rejects.toThrow(/no such file/);
  });

  it('refuses an empty token file', async () => {
    const empty = await tmp.write('empty-token', '\n');
    const path = await userConfig('kubeconfig', 'https://127.0.0.1:1', undefined, { tokenFile: empty });
    await expect(loadConnection({ kubeconfig: path, env: cleanEnv() })).rejects.toThrow(
      new ConfigError(`token file ${empty} is empty`),
    );
  });

  it('re-reads the file after a minute, and at once after invalidate()', async () => {
    const clock = new ManualClock();
    const path = await tmp.write('token', 'one');
    const source = new TokenFileCredentials(path, clock);
    expect(await source.authorization()).toBe('Bearer one');
    await writeFile(path, 'two');
    clock.advance(59_000);
    expect(await source.authorization()).toBe('Bearer one');
    clock.advance(1_000);
    expect(await source.authorization()).toBe('Bearer two');
    await writeFile(path, 'three');
    expect(await source.authorization()).toBe('Bearer two');
    source.invalidate();
    expect(await source.authorization()).toBe('Bearer three');
    expect(await source.clientCertificate()).toBeUndefined();
  });

  it('passes the clock through loadConnection', async () => {
    const clock = new ManualClock();
    const tokenPath = await tmp.write('token', 'first');
    const path = await userConfig('kubeconfig', 'https://k.example', undefined, { tokenFile: tokenPath });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv(), clock });
    await writeFile(tokenPath, 'second');
    expect(await conn.credentials.authorization()).toBe('Bearer first');
    clock.advance(60_000);
    expect(await conn.credentials.authorization()).toBe('Bearer second');
  });
});

describe('basic auth and plain http', () => {
  it('sends the same basic auth header as kubectl', async () => {
    server = await startRecordingServer(true);
    const path = await userConfig('kubeconfig', server.url, server.caPem, {
      username: 'admin',
      password: 'p@ss:word',
    });
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(await conn.credentials.authorization()).toBe(`Basic ${b64('admin:p@ss:word')}`);
    if (haveKubectl) expect(await kubectlSends(server, path)).toBe(await conn.credentials.authorization());
  });

  it('sends no credentials to an http:// server, as kubectl does not', async () => {
    server = await startRecordingServer(false);
    const ran = tmp.at('exec-ran');
    const plugin = await tmp.script('plugin.sh', `#!/bin/sh\ntouch ${ran}\nexit 1\n`);
    const tokenPath = await userConfig('token.yaml', server.url, undefined, { token: 'never-in-clear' });
    const execPath = await userConfig('exec.yaml', server.url, undefined, {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
    });
    for (const path of [tokenPath, execPath]) {
      const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
      expect(await conn.credentials.authorization()).toBeUndefined();
      expect(await conn.credentials.clientCertificate()).toBeUndefined();
      if (haveKubectl) expect(await kubectlSends(server, path)).toBeUndefined();
    }
    // Neither kubectl nor we ran the plugin for a plain-http server.
    await expect(rm(ran)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
