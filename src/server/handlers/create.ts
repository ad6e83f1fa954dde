/** POST to a collection, as k8s.io/apiserver's handlers/create.go `createHandler` serves it. */
import { StatusError } from '../../protocol/status.js';
import { replyObject } from './reply.js';
import type { RequestScope } from './request-scope.js';
import { warnTo, writeAdmission } from './write-admission.js';
import {
  dryRun,
  goKindOf,
  loadWriteRules,
  readObject,
  repeatedKeysOf,
  typedWrite,
  writeManager,
} from './write-input.js';

/** Creates the object the body holds: 201 with the object as stored. */
export async function createResource(scope: RequestScope): Promise<void> {
  const { kind, query } = scope;
  // customresource_handler.go `serveResource`: a terminating definition's objects may be
  // read, changed and deleted, but no new one created.
  if (kind.custom?.state.terminating) {
    throw StatusError.of(
      'MethodNotAllowed',
      'create not allowed while custom resource definition is terminating',
    );
  }
  const body = await readObject(scope.req, repeatedKeysOf(kind), goKindOf(kind));
  const rules = await loadWriteRules();
  rules.decodeBody(typedWrite(scope, rules.decodeTargetOf(kind), 'CreateOptions'), body);
  const isDryRun = dryRun(query);
  const created = await scope.server.objects.create(kind, scope.namespace, body, {
    dryRun: isDryRun,
    owned: true,
    fieldManager: writeManager(scope),
    admission: writeAdmission(scope, { dryRun: isDryRun }),
    user: scope.user,
    warn: warnTo(scope),
  });
  return replyObject(scope, 201, created);
}
