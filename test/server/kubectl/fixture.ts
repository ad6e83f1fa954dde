/**
 * One real server and one real kubectl against it, for the enclosing describe
 * block: a temp dir holding the kubeconfig and kubectl's HOME and cache, the
 * server started the way users run it (HTTPS, a bearer token), and a
 * {@link KubectlSession} working in `namespace`, which is created. Everything
 * is closed and removed after the block.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { ensureNamespace } from '../../helpers/server.js';
import type { KubectlBinary } from '../../helpers/tools.js';
import { KubectlSession } from './run.js';

/** What {@link useKubectlServer} hands the tests of its block (inside tests and hooks only). */
export interface KubectlServer {
  readonly server: RunningServer;
  readonly kubectl: KubectlSession;
  /** Writes `text` to a file in the block's temp dir and returns its path. */
  file(name: string, text: string): Promise<string>;
}

/** Registers a server and a kubectl session for the enclosing describe block. */
export function useKubectlServer(
  binary: KubectlBinary,
  namespace: string,
  options: ServerOptions = {},
): KubectlServer {
  let dir: string | undefined;
  let server: RunningServer | undefined;
  let kubectl: KubectlSession | undefined;
  const tempDir = tempDirForFile('watchmark-kubectl-');
  beforeAll(async () => {
    dir = tempDir();
    await mkdir(join(dir, 'home'), { recursive: true });
    // No serviceaccount controller runs: the ServiceAccount plugin is off, as envtest runs kube-apiserver.
    server = await startServer({
      compactionInterval: 0,
      disableAdmissionPlugins: ['ServiceAccount'],
      ...options,
      kubeconfigOut: join(dir, 'kubeconfig'),
    });
    kubectl = new KubectlSession(binary, dir, server.kubeconfigPath!, namespace);
    await ensureNamespace(server, namespace);
  });
  afterAll(async () => {
    await kubectl?.close();
    await server?.close();
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('kubectl fixture used outside its describe block');
    return value;
  };
  return {
    get server() {
      return running(server);
    },
    get kubectl() {
      return running(kubectl);
    },
    file: async (name, text) => {
      const path = join(running(dir), name);
      await writeFile(path, text);
      return path;
    },
  };
}
