/**
 * kubectl conformance: every real kubectl on this machine (the `kubectl` on
 * PATH, a dispatcher that runs `kubectl.1.<server minor>`, and each
 * `kubectl.1.27` ... `kubectl.1.33` beside it) runs the same scenario against
 * one server started in-process the way users run it: HTTPS with a generated
 * CA and a bearer token in the kubeconfig. Each kubectl gets its own HOME,
 * cache dir and namespace, and all of them run at once so the suite stays
 * short: the scenarios start together in `beforeAll`, and each test reports
 * one kubectl's outcome. A last test compares what the `create` generators
 * stored across kubectls: 1.32+ send those objects as protobuf, and must end
 * up with exactly what kubectl 1.31 (JSON) stores.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_RESOURCE_DEFINITIONS } from '../../../src/server/crd/serve/crd-kind.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import { KUBE_GIT_VERSION } from '../../../src/server/openapi/version.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { call } from '../../helpers/server.js';
import { findKubectls, type KubectlBinary, requireTool } from '../../helpers/tools.js';
import type { GeneratedObjects } from './generators.js';
import { KubectlSession } from './run.js';
import { runScenario } from './scenario.js';

const kubectls = await findKubectls();
// Said on every run, so that a log shows what the suite covered; none is a skip here and a failure
// under CI (requireTool).
console.log(
  `kubectl conformance: found ${kubectls.length} kubectl binar${kubectls.length === 1 ? 'y' : 'ies'}` +
    (kubectls.length > 0 ? `: ${kubectls.map((k) => k.name).join(', ')}` : ''),
);
const haveKubectl = requireTool('kubectl', kubectls.length > 0);
const SERVER_MINOR = Number(/^v1\.(\d+)\./.exec(KUBE_GIT_VERSION)![1]);

/** The minor version a binary runs as: `kubectl.1.<minor>`, or the server's for the dispatcher. */
function minorOf(k: KubectlBinary): number {
  const m = /^kubectl\.1\.(\d+)$/.exec(k.name);
  return m ? Number(m[1]) : SERVER_MINOR;
}

/** A scenario's outcome, kept settled so that an early failure is not an unhandled rejection. */
type Outcome = { ok: true; generated: GeneratedObjects } | { ok: false; error: unknown };

/** The kubectl whose JSON the protobuf-sending ones (1.32+) must match. */
const REFERENCE = 'kubectl.1.31';

describe.skipIf(!haveKubectl)('kubectl conformance', () => {
  let dir: string;
  let server: RunningServer;
  const serverLog: string[] = [];
  const outcomes = new Map<string, Promise<Outcome>>();

  const tempDir = tempDirForFile('watchmark-kubectl-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({
      kubeconfigOut: join(dir, 'kubeconfig'),
      // No serviceaccount controller runs: the ServiceAccount plugin is off, as envtest runs kube-apiserver.
      disableAdmissionPlugins: ['ServiceAccount'],
      // Short enough that the 3 s raw watch sees bookmarks, and that `get -w` would too if it asked.
      bookmarkInterval: 300,
      bookmarkLead: 100,
      log: (message) => serverLog.push(message),
    });
    for (const [index, binary] of kubectls.entries()) {
      const home = join(dir, binary.name);
      await mkdir(join(home, 'home'), { recursive: true });
      const session = new KubectlSession(
        binary,
        home,
        server.kubeconfigPath!,
        `kc-${binary.name.replace(/\./g, '-')}`,
      );
      const touch = async () => {
        const r = await call(
          server,
          'POST',
          `/apis/coordination.k8s.io/v1/namespaces/${session.namespace}/leases`,
          {
            body: {
              apiVersion: 'coordination.k8s.io/v1',
              kind: 'Lease',
              metadata: { generateName: 'touch-' },
            },
          },
        );
        if (r.status !== 201) throw new Error(`touch: ${r.status} ${r.text}`);
      };
      const outcome = runScenario({
        kubectl: session,
        kinds: [...REGISTRY, CUSTOM_RESOURCE_DEFINITIONS],
        minor: minorOf(binary),
        nodePort: 30080 + index,
        touch,
      })
        .then((generated): Outcome => ({ ok: true, generated }))
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
    it(`${binary.name} runs the whole scenario`, { timeout: 90_000 }, async () => {
      const outcome = await outcomes.get(binary.name)!;
      if (!outcome.ok) throw outcome.error;
    });
  }

  it.skipIf(!kubectls.some((k) => k.name === REFERENCE))(
    `every kubectl's create deployment/service stores what ${REFERENCE}'s does`,
    async () => {
      const reference = await outcomes.get(REFERENCE)!;
      if (!reference.ok) throw new Error(`${REFERENCE} did not finish its scenario`);
      for (const [name, outcome] of outcomes) {
        // A failed scenario is reported by its own test.
        const stored = await outcome;
        if (stored.ok) expect(stored.generated, name).toEqual(reference.generated);
      }
    },
  );

  it('the server logged no errors meanwhile', async () => {
    await Promise.allSettled(outcomes.values());
    expect(serverLog).toEqual([]);
  });
});
