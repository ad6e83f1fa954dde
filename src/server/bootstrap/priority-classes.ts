/**
 * kube-apiserver's `scheduling/bootstrap-system-priority-classes` post-start hook
 * (pkg/registry/scheduling/rest/storage_scheduling.go `AddSystemPriorityClasses`):
 * system-node-critical and system-cluster-critical, as the reference writes them
 * (priority-classes.generated.ts).
 */
import { BootstrapWrites } from './create-missing.js';
import { SYSTEM_PRIORITY_CLASSES } from './priority-classes.generated.js';
import type { BootstrapWriter } from './writer.js';

/** Writes the system priority classes that are missing. */
export const writeSystemPriorityClasses: BootstrapWriter = async (objects) => {
  await new BootstrapWrites(objects).createMissing(SYSTEM_PRIORITY_CLASSES);
};
