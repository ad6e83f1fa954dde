/**
 * Custom resources through every real kubectl on this machine (1.27-1.33 and the dispatcher),
 * all at once against one server started as users run it (HTTPS, a token): each applies its
 * own definition and walks test/server/kubectl/crd-scenario.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { ensureNamespace } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { runCrdScenario } from './crd-scenario.js';
import { KubectlSession } from './run.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

type Outcome = { ok: true } | { ok: false; error: unknown };

describe.skipIf(!haveKubectl)('kubectl and custom resources', () => {
  // A server per kubectl: one scenario's CRD going away mid-discovery would otherwise put
  // another kubectl's "couldn't get resource list" line on its stderr.
  const servers: RunningServer[] = [];
  const serverLog: string[] = [];
  const outcomes = new Map<string, Promise<Outcome>>();
  const tempDir = tempDirForFile('watchmark-kubectl-crd-');

  beforeAll(async () => {
    const dir = tempDir();
    for (const binary of kubectls) {
      const slug = binary.name.replace(/\./g, '-');
      const home = join(dir, slug);
      await mkdir(join(home, 'home'), { recursive: true });
      const server = await startServer({
        kubeconfigOut: join(home, 'kubeconfig'),
        log: (m) => serverLog.push(`${binary.name}: ${m}`),
      });
      servers.push(server);
      const session = new KubectlSession(binary, home, server.kubeconfigPath!, `crd-${slug}`);
      await ensureNamespace(server, session.namespace);
      const file = async (name: string, text: string) => {
        const path = join(home, name);
        await writeFile(path, text);
        return path;
      };
      const outcome = runCrdScenario(session, `${slug}.example.com`, file)
        .then((): Outcome => ({ ok: true }))
        .catch((error: unknown): Outcome => ({ ok: false, error }))
        .finally(() => session.close());
      outcomes.set(binary.name, outcome);
    }
  });

  afterAll(async () => {
    await Promise.allSettled(outcomes.values());
    await Promise.all(servers.map((s) => s.close()));
  });

  for (const binary of kubectls) {
    it(`${binary.name} applies, lists, explains, scales, patches and deletes a custom resource`, {
      timeout: 90_000,
    }, async () => {
      const outcome = await outcomes.get(binary.name)!;
      if (!outcome.ok) throw outcome.error;
    });
  }

  it('the server logged no errors meanwhile', async () => {
    await Promise.allSettled(outcomes.values());
    expect(serverLog).toEqual([]);
  });
});
