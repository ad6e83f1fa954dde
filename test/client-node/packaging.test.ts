/**
 * How `watchmark/client-node` ships: its own entry point, client-node an
 * optional peer that no file under src/client-node imports, and types that
 * take client-node's own objects where client-node's code has them (checked
 * by the type checker: this file compiles only if they do).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import * as dropIn from '../../src/client-node/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('packaging of watchmark/client-node', () => {
  it('has its own entry point, and @kubernetes/client-node is an optional peer', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./client-node']).toEqual({
      types: './dist/client-node/index.d.ts',
      default: './dist/client-node/index.js',
    });
    expect(pkg.peerDependencies['@kubernetes/client-node']).toBeDefined();
    expect(pkg.peerDependenciesMeta['@kubernetes/client-node']).toEqual({ optional: true });
    expect(pkg.dependencies['@kubernetes/client-node']).toBeUndefined();
  });

  it('no file under src/client-node imports @kubernetes/client-node, not even its types', () => {
    const dir = join(ROOT, 'src/client-node');
    const importing = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        /(from|import)\s*\(?\s*['"]@kubernetes\/client-node/.test(readFileSync(join(dir, f), 'utf8')),
      );
    expect(importing).toEqual([]);
  });

  it("takes client-node's KubeConfig and Watch, and is client-node's Informer & ObjectCache", () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromClusterAndUser(
      { name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: false },
      { name: 'u' },
    );
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const listFn = () => core.listNamespacedPod({ namespace: 'default' });
    const informer: k8s.Informer<k8s.V1Pod> & k8s.ObjectCache<k8s.V1Pod> = dropIn.makeInformer<k8s.V1Pod>(
      kc,
      '/api/v1/namespaces/default/pods',
      listFn,
    );
    const listWatch: k8s.Informer<k8s.V1Pod> = new dropIn.ListWatch<k8s.V1Pod>(
      '/api/v1/namespaces/default/pods',
      new k8s.Watch(kc),
      listFn,
      false,
    );
    const callback: k8s.ObjectCallback<k8s.V1Pod> = () => {};
    informer.on(k8s.ADD, callback);
    listWatch.off(dropIn.ADD, callback);
    expect([dropIn.ADD, dropIn.UPDATE, dropIn.DELETE, dropIn.CHANGE, dropIn.CONNECT, dropIn.ERROR]).toEqual([
      k8s.ADD,
      k8s.UPDATE,
      k8s.DELETE,
      k8s.CHANGE,
      k8s.CONNECT,
      k8s.ERROR,
    ]);
  });
});
