/**
 * `pods/NAME/ephemeralcontainers` (pkg/registry/core/pod/storage/storage.go
 * `EphemeralContainersREST`: a getter and an updater over the pod store with
 * `podEphemeralContainersStrategy`): GET answers the Pod, PUT and PATCH change its
 * spec.ephemeralContainers and nothing else. The write is the generic update's, scoped
 * `ephemeralcontainers` (registry/prepare-write.ts keeps the rest of the old pod; the Pod kind's
 * `validateStatusUpdate` holds the strategy's validation). `pods/NAME/resize` (`ResizeREST`, the
 * same getter and updater with `podResizeStrategy`) is served by the same function, scoped `resize`.
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

/** Serves GET, PUT and PATCH of a pod's ephemeral containers; any other method is a 405. */
export async function servePodEphemeralContainers(scope: RequestScope): Promise<void> {
  const { req, res, kind, method } = scope;
  if (!isNamed(scope) || !['GET', 'PUT', 'PATCH'].includes(method)) throw routeMethodNotAllowed();
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
