/**
 * The Service REST storage's allocation step, as the object layer runs it:
 * which kind allocates, and what the stored Services already hold. The rules
 * of allocation themselves are in kinds/core/service/allocation.ts.
 */
import type { KubeObject } from '../../protocol/events.js';
import { type Allocations, allocationsOf } from '../kinds/core/service/allocation.js';
import type { ResourceKind } from '../kinds/types.js';
import type { Store } from '../stores/types.js';

/** Services get cluster IPs and node ports allocated on writes (see kinds/core/service/allocation.ts). */
export function isService(kind: ResourceKind): boolean {
  return kind.group === '' && kind.kind === 'Service';
}

/** Cluster IPs and node ports held by the stored Services (but `except`, namespace/name). */
export async function serviceAllocations(store: Store, except?: string): Promise<Allocations> {
  const { items } = await store.list('/core/services/');
  return allocationsOf(
    items.map((kv) => JSON.parse(kv.value) as KubeObject),
    except,
  );
}
