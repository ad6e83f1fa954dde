/**
 * Namespace deletion across servers, in failover runs (issue 39): a namespace is created with
 * a ConfigMap that a finalizer holds, deleted through one server, and its finalizer released
 * through the other (sometimes the same one), while the run's kills and failovers land. Every
 * server's namespace controller follows the watch cache, so whichever server is up finishes
 * the namespace; the check after the schedule is that every such namespace is gone.
 *
 * The held ConfigMaps carry no `tier` label, so no informer of the run selects them: the
 * informers' checks are the same with or without these steps.
 */

import { type KubeClient, StatusError, TransportError } from '../../src/index.js';
import { pollUntil, seededRandom } from '../../src/process/index.js';

/** The finalizer that holds a cycle's ConfigMap until its release step. */
const HOLD = 'chaos.example.com/hold';

/** One step of a namespace cycle; `via` is the index of the server it goes through first. */
export type NamespaceStep =
  | { op: 'holdNamespace'; namespace: string; via: number }
  | { op: 'deleteNamespace'; namespace: string; via: number }
  | { op: 'releaseNamespace'; namespace: string; via: number };

/**
 * `steps` with one or two namespace cycles of `seed` inserted, each cycle's three steps in
 * order at random places. A stream of its own, so the rest of a seed's plan stays as it was.
 */
export function withNamespaceCycles<T>(seed: number, steps: readonly T[]): Array<T | NamespaceStep> {
  const rng = seededRandom(Math.imul(seed, 0xc2b2ae35) ^ 0x165667b1);
  const out: Array<T | NamespaceStep> = [...steps];
  const cycles = rng() < 0.5 ? 1 : 2;
  for (let k = 0; k < cycles; k++) {
    const namespace = `chaos-drop-${k}`;
    const deleteVia = rng() < 0.5 ? 0 : 1;
    // Mostly released through the other server: the case a request-driven controller never finished.
    const releaseVia = rng() < 0.75 ? 1 - deleteVia : deleteVia;
    const holdVia = rng() < 0.5 ? 0 : 1;
    const at = [0, 0, 0].map(() => Math.floor(rng() * (out.length + 1))).sort((a, b) => a - b);
    out.splice(at[2], 0, { op: 'releaseNamespace', namespace, via: releaseVia });
    out.splice(at[1], 0, { op: 'deleteNamespace', namespace, via: deleteVia });
    out.splice(at[0], 0, { op: 'holdNamespace', namespace, via: holdVia });
  }
  return out;
}

/** Whether `step` is a namespace cycle's. */
export function isNamespaceStep(step: { op: string }): step is NamespaceStep {
  return step.op === 'holdNamespace' || step.op === 'deleteNamespace' || step.op === 'releaseNamespace';
}

/**
 * Runs `step` through `clientFor(attempt)` (a killed server's turn goes to the other),
 * retrying transport failures for up to `retryMs`; a 404 or 409 (a retried write that had
 * landed, a namespace already gone) is what was asked. Returns a line for the timeline.
 */
export async function runNamespaceStep(
  clientFor: (attempt: number) => KubeClient,
  step: NamespaceStep,
  retryMs: number,
): Promise<string> {
  const deadline = Date.now() + retryMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await once(clientFor(attempt), step);
      return `${step.op} ${step.namespace} (attempt ${attempt})`;
    } catch (err) {
      if (err instanceof TransportError && Date.now() < deadline) {
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(10 * attempt, 50)));
        continue;
      }
      if (err instanceof StatusError && [404, 409].includes(err.code))
        return `${step.op} ${step.namespace} (attempt ${attempt}): ${err.code}`;
      throw err;
    }
  }
}

async function once(kube: KubeClient, step: NamespaceStep): Promise<void> {
  const held = kube.resource('configmaps', step.namespace);
  switch (step.op) {
    case 'holdNamespace':
      await kube
        .resource('namespaces')
        .create({ metadata: { name: step.namespace } })
        .catch((err: unknown) => {
          if (!(err instanceof StatusError && err.code === 409)) throw err;
        });
      await held.create({ metadata: { name: 'held', finalizers: [HOLD] }, data: { v: 'held' } });
      return;
    case 'deleteNamespace':
      await kube.resource('namespaces').delete(step.namespace);
      return;
    case 'releaseNamespace':
      await held.patch('held', { metadata: { finalizers: null } });
      return;
  }
}

/**
 * The namespaces of `namespaces` still there after `timeoutMs`, read through `client()` (a
 * server that is up), each as a failure line naming its phase and conditions.
 */
export async function namespacesLeft(
  client: () => KubeClient,
  namespaces: readonly string[],
  timeoutMs: number,
): Promise<string[]> {
  const present = async (name: string): Promise<unknown> => {
    try {
      return await client().resource('namespaces').get(name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      return err;
    }
  };
  const failures: string[] = [];
  for (const name of namespaces) {
    const gone = await pollUntil(async () => (await present(name)) === undefined, {
      timeoutMs,
      intervalMs: 20,
    });
    if (gone) continue;
    const last = (await present(name)) as { status?: { phase?: string; conditions?: unknown[] } };
    failures.push(
      `namespace ${name} still there ${timeoutMs} ms after the schedule: ` +
        `${JSON.stringify(last?.status ?? last).slice(0, 400)}`,
    );
  }
  return failures;
}
