/**
 * `certificatesigningrequests/NAME/approval`: how an approver adds the Approved or Denied
 * condition to a CertificateSigningRequest (kubectl certificate approve). kube-apiserver's
 * ApprovalREST (pkg/registry/certificates/certificates/storage/storage.go) is a getter and an
 * updater over the CSR store with the approval strategy: GET answers the CSR, PUT and PATCH
 * change its `status.conditions` and nothing else, as /status does for the rest of the status.
 * The write itself is the generic update's, scoped `approval` (the kind's
 * `prepareForStatusUpdate` and `validateStatusUpdate` hold the strategy).
 */
import { failureStatus, StatusError } from '../../protocol/status.js';
import { mediaType } from '../http/http-io.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { answerProtobufIfChosen, answerYamlIfChosen } from './answer-form.js';
import { getResource } from './get.js';
import { negotiateRead, negotiateWrite } from './partial-metadata.js';
import { BUILTIN_PATCH_TYPES, patchResource } from './patch.js';
import { isNamed, type RequestScope } from './request-scope.js';
import { updateResource } from './update.js';

/** Serves GET, PUT and PATCH of a CSR's approval; any other method is a 405. */
export async function serveCsrApproval(scope: RequestScope): Promise<void> {
  const { req, res, kind, method } = scope;
  if (!isNamed(scope) || !['GET', 'PUT', 'PATCH'].includes(method)) throw routeMethodNotAllowed();
  // The route's own checks, in resource-handler.ts's order: the patch types, the answer's form.
  if (method === 'PATCH' && !BUILTIN_PATCH_TYPES.includes(mediaType(req.headers['content-type']))) {
    throw new StatusError({
      ...failureStatus('UnsupportedMediaType', '415: Unsupported Media Type'),
      details: {},
    });
  }
  if (method !== 'GET') negotiateWrite(req, kind);
  await answerYamlIfChosen(req, res, kind);
  await answerProtobufIfChosen(req, res, kind);
  if (method === 'GET') return getResource(scope, negotiateRead(req.headers.accept, kind));
  if (method === 'PUT') return updateResource(scope);
  return patchResource(scope);
}
