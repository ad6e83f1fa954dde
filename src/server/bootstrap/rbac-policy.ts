/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook (pkg/registry/rbac/rest/storage_rbac.go
 * `PolicyData.EnsureRBACPolicy`): the default cluster roles, cluster role bindings, and the roles
 * and role bindings of kube-system and kube-public, as the reference writes them
 * (rbac-policy.generated.ts). The hook also reconciles stored objects marked
 * `rbac.authorization.kubernetes.io/autoupdate` with a newer policy; with one release's policy
 * here, a stored object already is it. The data is imported when the writer first runs, so a
 * program importing the server does not parse it.
 */
import { BootstrapWrites } from './create-missing.js';
import type { BootstrapWriter } from './writer.js';

/** Writes the bootstrap RBAC policy's missing objects. */
export const writeRbacPolicy: BootstrapWriter = async (objects) => {
  const policy = await import('./rbac-policy.generated.js');
  const writes = new BootstrapWrites(objects);
  await writes.createMissing(policy.CLUSTER_ROLES);
  await writes.createMissing(policy.CLUSTER_ROLE_BINDINGS);
  await writes.createMissing(policy.ROLES);
  await writes.createMissing(policy.ROLE_BINDINGS);
};
