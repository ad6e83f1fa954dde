/**
 * PUT of one object, its status, a Namespace's finalize or a Scale, as k8s.io/apiserver's
 * handlers/update.go `UpdateResource` serves it: the body replaces what the endpoint may change.
 */
import { reply, replyObject } from './reply.js';
import type { NamedScope } from './request-scope.js';
import { updateScale } from './scale.js';
import { warnTo, writeAdmission } from './write-admission.js';
import {
  checkBodyNamed,
  dryRun,
  goKindOf,
  loadWriteRules,
  readObject,
  repeatedKeysOf,
  typedWrite,
  writeManager,
} from './write-input.js';

/** Updates (or, where the kind allows it, creates) the object: 200, or 201 when created. */
export async function updateResource(scope: NamedScope): Promise<void> {
  const { kind, subresource, query } = scope;
  // autoscaling/v1 Scale is a Go struct whatever the kind.
  const body = await readObject(
    scope.req,
    subresource === 'scale' ? 'merge' : repeatedKeysOf(kind),
    subresource === 'scale' ? 'Scale' : goKindOf(kind),
  );
  const rules = await loadWriteRules();
  if (subresource === 'scale') {
    // A kind without /scale answers 404 before its body is looked at.
    if (kind.scale) rules.decodeBody(typedWrite(scope, rules.SCALE_TARGET, 'UpdateOptions'), body);
    return reply(scope, 200, await updateScale(scope, () => body));
  }
  rules.decodeBody(typedWrite(scope, rules.decodeTargetOf(kind), 'UpdateOptions'), body);
  checkBodyNamed(body, scope.name);
  const updates =
    subresource === 'status' ||
    subresource === 'finalize' ||
    subresource === 'approval' ||
    subresource === 'ephemeralcontainers' ||
    subresource === 'resize'
      ? subresource
      : 'main';
  const isDryRun = dryRun(query);
  const { object, created } = await scope.server.objects.update(
    kind,
    scope.namespace,
    scope.name,
    body,
    updates,
    {
      dryRun: isDryRun,
      owned: true,
      fieldManager: writeManager(scope),
      admission: writeAdmission(scope, { subresource, dryRun: isDryRun }),
      user: scope.user,
      warn: warnTo(scope),
    },
  );
  return replyObject(scope, created ? 201 : 200, object);
}
