/**
 * Applying a CustomResourceDefinition and objects of its kind from one
 * file. `kubectl apply -f` fails there the first time (its objects are
 * mapped before the new type is served: "no matches for kind ... ensure
 * CRDs are installed first") and users run it twice. watchmark's apply
 * waits instead: before the first object of a kind a CRD earlier in the
 * same batch defines, it waits (bounded) until that CRD is Established and
 * discovery serves the kind, as `kubectl wait --for condition=Established`
 * between two applies would.
 */
import { sleep, systemClock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { isNotFound } from '../../protocol/status.js';
import type { KubeClient } from '../client.js';
import { NoKindMatchError } from '../restmapper/restmapper.js';
import type { ResourceType } from '../watch/resources.js';

/** The default bound of {@link waitForCustomKind}: 30 s. */
export const DEFAULT_CRD_WAIT_MS = 30_000;

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** What a CustomResourceDefinition manifest defines: its name, group and kind; undefined for anything else. */
export function crdDefinition(object: KubeObject): { name: string; group: string; kind: string } | undefined {
  if (object.kind !== 'CustomResourceDefinition' || !object.apiVersion?.startsWith('apiextensions.k8s.io/'))
    return undefined;
  const spec = (object as { spec?: { group?: string; names?: { kind?: string } } }).spec;
  const name = object.metadata?.name;
  if (!name || !spec?.group || !spec.names?.kind) return undefined;
  return { name, group: spec.group, kind: spec.names.kind };
}

interface CrdStatus {
  status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> };
}

/**
 * Waits until the CRD `crdName` is Established and `kind` at `apiVersion`
 * resolves over discovery; resolves to its type. Fails at once when the
 * CRD's names are refused (NamesAccepted False), and after `timeoutMs` with
 * what was last seen.
 */
export async function waitForCustomKind(
  kube: KubeClient,
  crdName: string,
  apiVersion: string,
  kind: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ResourceType> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CRD_WAIT_MS;
  const deadline = systemClock.now() + timeoutMs;
  let delayMs = 25;
  let seen = 'not yet Established';
  for (;;) {
    const crd = await kube.transport
      .json<CrdStatus>({ path: `${CRD_PATH}/${encodeURIComponent(crdName)}`, signal: opts.signal })
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    const conditions = crd?.status?.conditions ?? [];
    const refused = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
    if (refused) {
      throw new Error(
        `customresourcedefinition ${JSON.stringify(crdName)} names not accepted: ${refused.message ?? refused.reason ?? ''}`,
      );
    }
    if (!crd) seen = 'not found';
    else if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) {
      try {
        return await kube.mapper.kindFor(apiVersion, kind, opts.signal);
      } catch (err) {
        // Established, but discovery does not list the kind yet (or not at this version).
        if (!(err instanceof NoKindMatchError)) throw err;
        seen = `Established, but ${err.message}`;
      }
    }
    const left = deadline - systemClock.now();
    if (left <= 0) {
      throw new Error(
        `timed out after ${timeoutMs / 1000}s waiting for customresourcedefinition ${JSON.stringify(crdName)} to be Established and serve kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)} (${seen})`,
      );
    }
    if (!(await sleep(systemClock, Math.min(delayMs, left), opts.signal))) throw opts.signal?.reason;
    delayMs = Math.min(delayMs * 2, 1_000);
  }
}
