/**
 * The objects kube-apiserver writes itself as it starts (its post-start hooks): the bootstrap
 * RBAC policy, the system PriorityClasses, the APF configuration, the local APIServices. Each
 * writer is a file here; the server runs them all, in this order, after the system namespaces
 * exist and before it answers. Several servers over one etcd may race: a writer leaves an
 * object another created first as it is (AlreadyExists is not an error).
 */
import type { ObjectStorage } from '../registry/object-storage.js';
import { writeDefaultServiceCIDR } from './default-service-cidr.js';
import { writeFlowControlConfiguration } from './flowcontrol-config.js';
import { writeLocalAPIServices } from './local-apiservices.js';
import { writeSystemPriorityClasses } from './priority-classes.js';
import { writeRbacPolicy } from './rbac-policy.js';
import { repairServiceIPAddresses } from './service-ip-repair.js';

import type { BootstrapWriter } from './writer.js';

export type { BootstrapWriter } from './writer.js';

const WRITERS: readonly BootstrapWriter[] = [
  writeRbacPolicy,
  writeSystemPriorityClasses,
  writeLocalAPIServices,
  writeFlowControlConfiguration,
  writeDefaultServiceCIDR,
  repairServiceIPAddresses,
];

/** Runs every bootstrap writer. */
export async function writeBootstrapObjects(objects: ObjectStorage): Promise<void> {
  for (const write of WRITERS) await write(objects);
}
