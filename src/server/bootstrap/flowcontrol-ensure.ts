/**
 * The part of kube-apiserver's APF bootstrap ensurer that looks at objects already there
 * (pkg/registry/flowcontrol/ensurer/strategy.go, run by rest/storage_flowcontrol.go `ensure` at
 * start and every minute after):
 *
 * - `ReviseIfNeeded`: a mandatory object (`exempt`, `catch-all`) always gets the bootstrap spec
 *   back; a suggested one only while its `apf.kubernetes.io/autoupdate-spec` annotation says
 *   true (or, without a readable annotation, while its generation is 1). The annotation is set
 *   to what was decided whenever it says otherwise. Writes are updates under the producer's
 *   manager; a conflict waits for the next round.
 * - `RemoveUnwantedObjects`: a FlowSchema or priority level that is not in the bootstrap set but
 *   carries `autoupdate-spec: "true"` is deleted (an older release's bootstrap object).
 */
import type { KubeObject } from '../../protocol/events.js';
import { isConflict, isNotFound } from '../../protocol/status.js';
import { rec, sameJson, str } from '../kinds/access.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';

const AUTO_UPDATE = 'apf.kubernetes.io/autoupdate-spec';
const PRODUCER = 'api-priority-and-fairness-config-producer-v1';

/** flowcontrol/bootstrap's MandatoryPriorityLevelConfigurations and MandatoryFlowSchemas. */
const MANDATORY = new Set(['exempt', 'catch-all']);

/** Go's strconv.ParseBool. */
export function parseGoBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/**
 * `SpecEqualish`: the bootstrap spec (stored, so defaulted, as `SetDefaults_*` makes it) against
 * the current one; the `exempt` level's shares and lendable percent are the user's to tune.
 */
function specEqualish(bootstrap: KubeObject, current: KubeObject): boolean {
  const expected = structuredClone(rec(bootstrap.spec));
  const actual = rec(current.spec);
  if (bootstrap.kind === 'PriorityLevelConfiguration' && bootstrap.metadata?.name === 'exempt') {
    const exempt = actual.exempt;
    if (exempt === undefined || exempt === null) return false;
    const mine = rec(expected.exempt);
    for (const field of ['nominalConcurrencyShares', 'lendablePercent']) {
      const theirs = rec(exempt)[field];
      if (theirs === undefined) delete mine[field];
      else mine[field] = theirs;
    }
  }
  return sameJson(expected, actual);
}

/** `ReviseIfNeeded`: the object to write, or undefined when it is as it should be. */
export function reviseIfNeeded(current: KubeObject, bootstrap: KubeObject): KubeObject | undefined {
  const annotations = current.metadata?.annotations ?? {};
  const mandatory = MANDATORY.has(bootstrap.metadata?.name ?? '');
  const autoUpdateSpec =
    mandatory || (parseGoBool(annotations[AUTO_UPDATE]) ?? current.metadata?.generation === 1);
  const updateAnnotation = parseGoBool(annotations[AUTO_UPDATE]) !== autoUpdateSpec;
  const specChanged = autoUpdateSpec && !specEqualish(bootstrap, current);
  if (!updateAnnotation && !specChanged) return undefined;
  const revised = structuredClone(current);
  if (specChanged) revised.spec = structuredClone(bootstrap.spec);
  if (updateAnnotation) {
    revised.metadata = {
      ...revised.metadata,
      annotations: { ...revised.metadata?.annotations, [AUTO_UPDATE]: String(autoUpdateSpec) },
    };
  }
  return revised;
}

/** Revises every bootstrap object of `kind` that exists (`EnsureConfiguration` past its create). */
export async function reviseExisting(
  objects: ObjectStorage,
  kind: ResourceKind,
  bootstrap: readonly KubeObject[],
): Promise<void> {
  for (const wanted of bootstrap) {
    const name = wanted.metadata?.name ?? '';
    let current: KubeObject;
    try {
      current = await objects.get(kind, undefined, name);
    } catch (err) {
      if (isNotFound(err)) continue;
      throw err;
    }
    const revised = reviseIfNeeded(current, wanted);
    if (!revised) continue;
    try {
      await objects.update(kind, undefined, name, revised, 'main', {
        owned: true,
        fieldManager: { manager: PRODUCER },
      });
    } catch (err) {
      // "Something updated the object concurrently": the next round looks again.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
}

/** `RemoveUnwantedObjects`: deletes objects of `kind` outside `bootstrap` that say they auto-update. */
export async function removeUnwanted(
  objects: ObjectStorage,
  kind: ResourceKind,
  bootstrap: readonly KubeObject[],
): Promise<void> {
  const wanted = new Set(bootstrap.map((o) => o.metadata?.name));
  for (const obj of await objects.list(kind, '')) {
    const name = str(obj.metadata?.name);
    if (wanted.has(name) || parseGoBool(obj.metadata?.annotations?.[AUTO_UPDATE]) !== true) continue;
    try {
      await objects.delete(kind, undefined, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
