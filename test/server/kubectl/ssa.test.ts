/**
 * Server-side apply through every real kubectl on this machine (1.27-1.33 and the dispatcher),
 * all at once against one server started as users run it (HTTPS, a token), each in its own
 * namespace: test/server/kubectl/ssa-scenario.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { ensureNamespace } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { KubectlSession } from './run.js';
import { runSsaScenario } from './ssa-scenario.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

type Outcome = { ok: true } | { ok: false; error: unknown };

describe.skipIf(!haveKubectl)('kubectl apply --server-side', () => {
  let server: RunningServer;
  const outcomes = new Map<string, Promise<Outcome>>();
  const tempDir = tempDirForFile('watchmark-kubectl-ssa-');

  beforeAll(async () => {
    const dir = tempDir();
    server = await startServer({ kubeconfigOut: join(dir, 'kubeconfig'), compactionInterval: 0 });
    for (const binary of kubectls) {
      const slug = binary.name.replace(/\./g, '-');
      const home = join(dir, slug);
      await mkdir(join(home, 'home'), { recursive: true });
      const session = new KubectlSession(binary, home, server.kubeconfigPath!, `ssa-${slug}`);
      await ensureNamespace(server, session.namespace);
      const file = async (name: string, text: string) => {
        const path = join(home, name);
        await writeFile(path, text);
        return path;
      };
      const outcome = runSsaScenario(session, file)
        .then((): Outcome => ({ ok: true }))
        .catch((error: unknown): Outcome => ({ ok: false, error }))
        .finally(() => session.close());
      outcomes.set(binary.name, outcome);
    }
  });

  afterAll(async () => {
    await Promise.allSettled(outcomes.values());
    await server?.close();
  });

  for (const binary of kubectls) {
    it(`${binary.name}: conflicts, --force-conflicts, removal, client-side to server-side, and the goldens`, {
      timeout: 120_000,
    }, async () => {
      const outcome = await outcomes.get(binary.name)!;
      if (!outcome.ok) throw outcome.error;
    });
  }
});
