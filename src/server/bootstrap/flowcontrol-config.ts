/**
 * The API Priority and Fairness configuration kube-apiserver writes as it starts
 * (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap, written by the
 * `priority-and-fairness-config-producer` post-start hook under the manager
 * `api-priority-and-fairness-config-producer-v1`): the mandatory and suggested
 * PriorityLevelConfigurations and FlowSchemas (flowcontrol.generated.ts). The FlowSchemas' Dangling
 * conditions are the APF config controller's (`api-priority-and-fairness-config-consumer-v1`),
 * applied through /status as soon as they exist.
 *
 * The same ensuring runs at start and every minute after (server/controllers/apf-config-producer.ts),
 * as rest/storage_flowcontrol.go `ensure`: the missing objects are created, and over a store that
 * held some already, those are revised and the unwanted removed (flowcontrol-ensure.ts).
 */
import { objects as entries, rec, str } from '../kinds/access.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { BootstrapWrites } from './create-missing.js';
import { removeUnwanted, reviseExisting } from './flowcontrol-ensure.js';

const PRODUCER = 'api-priority-and-fairness-config-producer-v1';
const CONSUMER = 'api-priority-and-fairness-config-consumer-v1';

/**
 * Writes the bootstrap priority levels and flow schemas that are missing, and the schemas'
 * status; revises those that were there, and removes unwanted ones.
 */
export async function writeFlowControlConfiguration(objects: ObjectStorage): Promise<void> {
  const { PRIORITY_LEVELS, FLOW_SCHEMAS } = await import('./flowcontrol.generated.js');
  const levels = findByKind('flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration');
  const schemas = findByKind('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema');
  if (!levels || !schemas) throw new Error('bootstrap: the flowcontrol kinds are not served');
  // A store without any (every start of a memory store): all is created as bootstrap has it.
  const fresh =
    (await objects.storedNames(levels, '')).size === 0 && (await objects.storedNames(schemas, '')).size === 0;
  const own = { manager: PRODUCER, onlyManager: true };
  await new BootstrapWrites(objects).createMissing(PRIORITY_LEVELS, { kind: levels, ...own });
  const created = await new BootstrapWrites(objects).createMissing(FLOW_SCHEMAS, { kind: schemas, ...own });
  const wanted = new Map(FLOW_SCHEMAS.map((fs) => [fs.metadata?.name, fs]));
  for (const fs of created) {
    const data = wanted.get(fs.metadata?.name);
    const time = fs.metadata?.creationTimestamp;
    const conditions = entries(rec(data?.status).conditions).map((c) => ({ ...c, lastTransitionTime: time }));
    const consumer = entries(data?.metadata?.managedFields).filter((e) => str(e.manager) === CONSUMER);
    // The consumer's entry first, as the reference lists them.
    const managedFields = [...consumer.map((e) => ({ ...e, time })), ...entries(fs.metadata?.managedFields)];
    await objects.update(
      schemas,
      undefined,
      fs.metadata?.name ?? '',
      { ...fs, metadata: { ...fs.metadata, managedFields: managedFields as never }, status: { conditions } },
      'status',
      { owned: true, fieldManager: { manager: CONSUMER, recorded: true } },
    );
  }
  if (fresh) return;
  await reviseExisting(objects, levels, PRIORITY_LEVELS);
  await reviseExisting(objects, schemas, FLOW_SCHEMAS);
  await removeUnwanted(objects, schemas, FLOW_SCHEMAS);
  await removeUnwanted(objects, levels, PRIORITY_LEVELS);
}
