import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConnection } from '../../../src/client/config/index.js';
import {
  b64,
  cleanEnv,
  clientNodeView,
  haveKubectl,
  kubectlConfigView,
  kubectlView,
  ours,
  pem,
  TempDir,
} from './helpers.js';

const CA_DATA = pem('CERTIFICATE', 'ca from data');

let tmp: TempDir;
beforeEach(async () => {
  tmp = await TempDir.create();
});
afterEach(async () => {
  await tmp.remove();
});

describe('YAML and JSON details', () => {
  it('reads YAML 1.1 booleans like kubectl (client-node reads `yes` as a string)', async () => {
    const path = await tmp.write(
      'yes.yaml',
      [
        'current-context: c',
        'clusters:',
        '- name: c',
        '  cluster: {server: "https://yes.example", insecure-skip-tls-verify: yes}',
        'contexts:',
        '- name: c',
        '  context: {cluster: c, namespace: 2024-01-02}',
        '',
      ].join('\n'),
    );
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    expect(conn.insecureSkipTlsVerify).toBe(true);
    // A date-like scalar stays the string that was written.
    expect(conn.namespace).toBe('2024-01-02');
    if (haveKubectl) {
      const view = await kubectlConfigView({ kubeconfigFlag: path, home: tmp.path });
      expect(kubectlView(view)).toMatchObject({ insecure: true, namespace: '2024-01-02' });
    }
    // DIFFERENCE: client-node parses YAML 1.2, where `yes` is the string "yes",
    // and compares with `=== true`, so it verifies TLS for this cluster.
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBe(false);
  });

  it('reads a kubeconfig written as JSON', async () => {
    const path = await tmp.write(
      'config.json',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'j',
        clusters: [
          {
            name: 'j',
            cluster: { server: 'https://json.example', 'certificate-authority-data': b64(CA_DATA) },
          },
        ],
        users: [{ name: 'j', user: { token: 'json-token' } }],
        contexts: [{ name: 'j', context: { cluster: 'j', user: 'j' } }],
      }),
    );
    const conn = await loadConnection({ kubeconfig: path, env: cleanEnv() });
    const kc = new KubeConfig();
    kc.loadFromFile(path);
    expect(await ours(conn)).toEqual(await clientNodeView(kc));
    expect(await ours(conn)).toMatchObject({ caPem: CA_DATA, token: 'json-token' });
  });

  it('treats an empty file as an empty config', async () => {
    const empty = await tmp.write('empty.yaml', '');
    const real = await tmp.kubeconfig('real.yaml', {
      'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: 'https://real.example' } }],
      contexts: [{ name: 'c', context: { cluster: 'c' } }],
    });
    const conn = await loadConnection({ env: cleanEnv({ KUBECONFIG: `${empty}:${real}` }) });
    expect(conn.server).toBe('https://real.example');
  });
});
