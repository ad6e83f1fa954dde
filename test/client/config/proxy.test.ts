import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConnection,
  proxyFromEnvironment,
  useProxy,
} from '../../../src/client/config/index.js';
import { cleanEnv, TempDir } from './helpers.js';

// Go's golang.org/x/net/http/httpproxy rules, which kubectl applies when a
// cluster has no proxy-url. (Not cross-checked against kubectl: every "direct"
// answer would make kubectl dial a non-loopback address.)
describe('NO_PROXY matching', () => {
  it.each([
    // host, port, NO_PROXY, goes through the proxy?
    ['example.com', '443', '', true],
    ['localhost', '443', '', false],
    ['127.0.0.1', '443', '', false],
    ['127.9.9.9', '6443', '', false],
    ['::1', '443', '', false],
    ['[::1]', '443', '', false],
    ['example.com', '443', '*', false],
    ['10.1.2.3', '443', '*', false],
    ['example.com', '443', 'example.com', false],
    ['api.example.com', '443', 'example.com', false],
    ['notexample.com', '443', 'example.com', true],
    ['example.com', '443', '.example.com', true],
    ['api.example.com', '443', '.example.com', false],
    ['api.example.com', '443', '*.example.com', false],
    ['example.com', '443', '*.example.com', true],
    ['API.Example.COM', '443', 'example.com', false],
    ['api.example.com', '443', 'EXAMPLE.com', false],
    ['example.com', '443', 'example.com:8443', true],
    ['example.com', '8443', 'example.com:8443', false],
    ['example.com', '443', ' other.org , , example.com ', false],
    ['example.org', '443', 'other.org,example.com', true],
    ['10.1.2.3', '443', '10.0.0.0/8', false],
    ['11.1.2.3', '443', '10.0.0.0/8', true],
    ['10.96.0.1', '443', '10.96.0.0/12', false],
    ['10.112.0.1', '443', '10.96.0.0/12', true],
    ['10.1.2.3', '443', '10.1.2.3', false],
    ['10.1.2.4', '443', '10.1.2.3', true],
    ['10.1.2.3', '443', '10.1.2.3:6443', true],
    ['10.1.2.3', '6443', '10.1.2.3:6443', false],
    ['fd00::5', '443', 'fd00::/8', false],
    ['fe80::5', '443', 'fd00::/8', true],
    ['fd00::5', '443', 'fd00:0:0::5', false],
    ['fd00::5', '443', '[fd00::5]:443', false],
    ['fd00::5', '6443', '[fd00::5]:443', true],
    ['[fd00::5]', '443', 'fd00::5', false],
    ['fd00::6', '443', 'fd00::5', true],
  ])('%s:%s with NO_PROXY=%j → proxied: %s', (host, port, noProxy, proxied) => {
    expect(useProxy(host, port, noProxy)).toBe(proxied);
  });
});

describe('proxy variables', () => {
  const PROXY = 'http://proxy.corp:3128';

  it.each([
    ['https://api.example.com', { HTTPS_PROXY: PROXY }, PROXY],
    ['https://api.example.com', { https_proxy: PROXY }, PROXY],
    ['https://api.example.com', { HTTPS_PROXY: PROXY, https_proxy: 'http://lower:1' }, PROXY],
    ['https://api.example.com', { HTTPS_PROXY: '', https_proxy: PROXY }, PROXY],
    // Go never falls back from HTTPS_PROXY to HTTP_PROXY, nor the other way.
    ['https://api.example.com', { HTTP_PROXY: PROXY }, undefined],
    ['http://api.example.com', { HTTPS_PROXY: PROXY }, undefined],
    ['http://api.example.com', { HTTP_PROXY: PROXY }, PROXY],
    ['http://api.example.com', { http_proxy: PROXY }, PROXY],
    // httpoxy: in a CGI process HTTP_PROXY may come from the request, so it is ignored.
    ['http://api.example.com', { HTTP_PROXY: PROXY, REQUEST_METHOD: 'GET' }, undefined],
    ['https://api.example.com', { HTTPS_PROXY: 'proxy.corp:3128' }, 'http://proxy.corp:3128'],
    ['https://api.example.com', { HTTPS_PROXY: 'socks5://proxy.corp:1080' }, 'socks5://proxy.corp:1080'],
    // The default port of the scheme takes part in port-specific NO_PROXY entries.
    ['https://api.example.com', { HTTPS_PROXY: PROXY, NO_PROXY: 'api.example.com:443' }, undefined],
    ['http://api.example.com', { HTTP_PROXY: PROXY, NO_PROXY: 'api.example.com:443' }, PROXY],
    ['https://api.example.com:6443', { HTTPS_PROXY: PROXY, no_proxy: 'example.com' }, undefined],
    ['https://127.0.0.1:6443', { HTTPS_PROXY: PROXY }, undefined],
  ])('%s with %j → %s', (server, env, expected) => {
    expect(proxyFromEnvironment(server, env)).toBe(expected);
  });

  it('refuses a malformed proxy variable without echoing it (it may hold a password)', () => {
    const env = { HTTPS_PROXY: 'http://user:s3cret@[bad' };
    expect(() => proxyFromEnvironment('https://api.example.com', env)).toThrow(
      new ConfigError('HTTPS_PROXY is not a valid URL'),
    );
  });
});

describe('proxy in loadConnection', () => {
  let tmp: TempDir;
  beforeEach(async () => {
    tmp = await TempDir.create();
  });
  afterEach(async () => {
    await tmp.remove();
  });

  function kubeconfig(cluster: object): Promise<string> {
    return tmp.kubeconfig('kubeconfig', {
      'current-context': 'c',
      clusters: [{ name: 'c', cluster }],
      contexts: [{ name: 'c', context: { cluster: 'c' } }],
    });
  }

  it('chooses HTTPS_PROXY for an https server unless NO_PROXY matches it', async () => {
    const path = await kubeconfig({ server: 'https://api.prod.corp:6443' });
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://wrong:1' };
    const proxied = await loadConnection({ kubeconfig: path, env: cleanEnv(env) });
    expect(proxied.proxyUrl).toBe('http://proxy.corp:3128');
    const direct = await loadConnection({ kubeconfig: path, env: cleanEnv({ ...env, NO_PROXY: '.corp' }) });
    expect(direct.proxyUrl).toBeUndefined();
  });

  it('uses the proxy of an overriding --server, not of the kubeconfig server', async () => {
    const path = await kubeconfig({ server: 'https://api.prod.corp:6443' });
    const env = cleanEnv({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'direct.corp' });
    const conn = await loadConnection({ kubeconfig: path, env, server: 'https://direct.corp' });
    expect(conn.proxyUrl).toBeUndefined();
  });

  it('lets the cluster proxy-url win over the environment and NO_PROXY', async () => {
    const path = await kubeconfig({
      server: 'https://api.prod.corp',
      'proxy-url': 'socks5://jump.corp:1080',
    });
    const env = cleanEnv({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '*' });
    const conn = await loadConnection({ kubeconfig: path, env });
    expect(conn.proxyUrl).toBe('socks5://jump.corp:1080');
  });
});
