/**
 * The chaos writer's one write: a schedule step turned into a REST call,
 * retried while the server cannot be reached (a keep-alive socket that a
 * restarted server closed, a killed server whose successor is starting).
 * A retried write may have landed before its answer was lost: a create
 * then answers 409, a delete 404, a patch applies again; all fine here,
 * since the checks read the server's real state, never the plan's.
 */

import { createHash } from 'node:crypto';
import { type KubeClient, type KubeObject, StatusError, TransportError } from '../../src/index.js';
import { buildPod } from '../../src/sim/index.js';
import { WIDGETS } from './crd.js';
import { HPAS, NETWORK_POLICIES, ROLES, type Step } from './schedule.js';

/** A write step of a schedule. */
export type WriteStep = Extract<Step, { ns: string }>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `step` through `clientFor(attempt)` (attempt 0 first; a failover run
 * moves to the other server on a retry), retrying transport failures for up
 * to `retryMs`. Resolves `refused` on 404 or 409 (an earlier write of the
 * plan failed, or a retried one had landed); throws anything else.
 */
export async function writeStep(
  clientFor: (attempt: number) => KubeClient,
  step: WriteStep,
  retryMs: number,
): Promise<WriteOutcome> {
  const deadline = Date.now() + retryMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const written = await writeOnce(clientFor(attempt), step);
      return { outcome: 'done', attempt, resourceVersion: written?.metadata?.resourceVersion };
    } catch (err) {
      if (err instanceof TransportError && Date.now() < deadline) {
        // The first retry goes at once (a stale pooled socket); later ones wait for the server.
        if (attempt > 0) await sleep(Math.min(10 * attempt, 50));
        continue;
      }
      if (err instanceof StatusError && [404, 409].includes(err.code)) return { outcome: 'refused', attempt };
      throw err;
    }
  }
}

/** How a write ended: on which attempt, and the resourceVersion the answer carried. */
export interface WriteOutcome {
  outcome: 'done' | 'refused';
  attempt: number;
  resourceVersion?: string;
}

/**
 * What a ConfigMap, Role or NetworkPolicy carries of a step's data: its data, a rule naming it,
 * a pod selector on it. A merge patch of this replaces the Role's rules whole.
 */
function content(res: WriteStep['res'], data: string): Record<string, unknown> {
  if (res === ROLES)
    return { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: [data] }] };
  // A label value holds 63 characters of [-A-Za-z0-9_.]: the data's digest, so any data will do.
  // A HorizontalPodAutoscaler's maximum and a Pods metric named by the data (v1 sees the metric
  // only in its annotation). A merge patch of this replaces the metrics whole.
  if (res === HPAS)
    return {
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 1 + (data.length % 9),
        metrics: [
          {
            type: 'Pods',
            pods: {
              metric: { name: `m-${createHash('sha256').update(data).digest('hex').slice(0, 20)}` },
              target: { type: 'AverageValue', averageValue: '1' },
            },
          },
        ],
      },
    };
  if (res === NETWORK_POLICIES)
    return {
      spec: {
        podSelector: { matchLabels: { data: createHash('sha256').update(data).digest('hex').slice(0, 40) } },
      },
    };
  return { data: { v: data } };
}

/** Runs the write; resolves with the object the server answered, if it answered one. */
async function writeOnce(kube: KubeClient, step: WriteStep): Promise<KubeObject | undefined> {
  const res = step.res;
  const client = kube.resource<KubeObject>(res, step.ns);
  switch (step.op) {
    case 'create':
      return client.create(
        res === 'pods'
          ? buildPod(step.name, {
              labels: { tier: step.tier },
              annotations: { data: step.data },
              image: 'nginx',
            })
          : res === WIDGETS
            ? {
                metadata: { name: step.name, labels: { tier: step.tier } },
                spec: { size: 1, data: step.data },
              }
            : { metadata: { name: step.name, labels: { tier: step.tier } }, ...content(res, step.data) },
      );
    case 'modify':
      return client.patch(
        step.name,
        res === 'pods'
          ? { metadata: { annotations: { data: step.data } } }
          : res === WIDGETS
            ? { spec: { data: step.data } }
            : content(res, step.data),
      );
    case 'relabel':
      return client.patch(step.name, { metadata: { labels: { tier: step.tier } } });
    case 'phase':
      return client.patch(step.name, { status: { phase: step.phase } }, 'merge', { subresource: 'status' });
    case 'delete': {
      const answer = await client.delete(step.name);
      return answer && typeof answer === 'object' && 'metadata' in answer
        ? (answer as KubeObject)
        : undefined;
    }
  }
}
