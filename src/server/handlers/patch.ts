/**
 * PATCH of one object, its status or its Scale, as k8s.io/apiserver's handlers/patch.go
 * `PatchResource` serves it: a JSON patch, a merge patch or a strategic merge patch applied to the
 * live object, or server-side apply (server-side-apply.ts).
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { checkNestingDepth, MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from '../http/http-io.js';
import { qualifiedResource } from '../kinds/api-errors.js';
import { patchStrictErrors } from '../schema/patch-strict-errors.js';
import type { TypedWrite } from '../schema/write-rules.js';
import { reply, replyObject } from './reply.js';
import type { NamedScope } from './request-scope.js';
import { updateScale } from './scale.js';
import { warnTo, writeAdmission } from './write-admission.js';
import {
  dryRun,
  loadWriteRules,
  type OptionError,
  typedWrite,
  validateWriteOptions,
  writeManager,
} from './write-input.js';

/**
 * The patch types a built-in kind's PATCH route consumes (endpoints/installer.go,
 * `supportedTypes`; CBOR apply is behind a feature gate that is off by default).
 */
export const BUILTIN_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

const CUSTOM_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

// Each loaded once: a dynamic import() per request costs a module-map lookup and its promise
// (under a loader such as tsx's, a round trip to the loader's thread: ~150 µs a patch).
let applyModule: Promise<typeof import('./server-side-apply.js')> | undefined;
let patchModule: Promise<typeof import('../../protocol/patch/index.js')> | undefined;

/** Patches the object and answers it as it now is. */
export async function patchResource(scope: NamedScope): Promise<void> {
  const { server, req, kind, name, subresource, query } = scope;
  const raw = await readBody(req, MAX_BODY_BYTES);
  const contentType = mediaType(req.headers['content-type']);
  // Custom resources have no Go struct to read patch strategies from: the custom resource
  // handler (apiextensions-apiserver customresource_handler.go, `supportedTypes`) accepts JSON
  // patches, merge patches and apply, and answers anything else with the negotiation's 415.
  if (kind.custom && !CUSTOM_PATCH_TYPES.includes(contentType)) {
    throw StatusError.of(
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${CUSTOM_PATCH_TYPES.join(', ')}`,
    );
  }
  // patch.go `PatchResource` refuses bad options before reading the object (meta/v1 validation
  // `ValidatePatchOptions`): `force` belongs to apply alone, which requires a fieldManager; the
  // options every write has come after.
  const isApply = contentType === 'application/apply-patch+yaml';
  const patchErrors: OptionError[] = [];
  if (!isApply && query.get('force') !== null) {
    patchErrors.push({
      field: 'force',
      reason: 'FieldValueForbidden',
      body: 'Forbidden: may not be specified for non-apply patch',
    });
  }
  if (isApply && !query.get('fieldManager')) {
    patchErrors.push({
      field: 'fieldManager',
      reason: 'FieldValueRequired',
      body: 'Required value: is required for apply patch',
    });
  }
  validateWriteOptions(query, 'PatchOptions', patchErrors);
  const isDryRun = dryRun(query, 'PatchOptions');
  // The patch code is loaded on the first PATCH: a server that is only read
  // or watched (most programs importing it) never pays for it.
  if (isApply) {
    applyModule ??= import('./server-side-apply.js');
    const { serverSideApply } = await applyModule;
    return serverSideApply(scope, raw, isDryRun);
  }
  const body = parseJsonBody(raw);
  const patchStrictErrs = patchStrictErrors(raw.toString('utf8'), contentType);
  patchModule ??= import('../../protocol/patch/index.js');
  const { applyPatch } = await patchModule;
  const rules = await loadWriteRules();
  // The patched object is decoded into the Go type as a JSON or merge patch's result is, or
  // converted from a map as a strategic merge patch's is: each has its own words (write-rules.ts).
  const strategic = contentType === 'application/strategic-merge-patch+json';
  const checkPatched = (write: TypedWrite, patched: KubeObject) =>
    strategic
      ? rules.convertStrategicPatched(write, patched, body, patchStrictErrs)
      : rules.decodeJsonPatched(write, patched, patchStrictErrs);
  if (subresource === 'scale') {
    const write = typedWrite(scope, rules.SCALE_TARGET, 'PatchOptions');
    const scale = await updateScale(scope, (current) => {
      const patched = applyPatch(current, body, contentType, 'Scale') as KubeObject;
      checkPatched(write, patched);
      return patched;
    });
    return reply(scope, 200, scale);
  }
  const write = typedWrite(scope, rules.decodeTargetOf(kind), 'PatchOptions');
  const updates =
    subresource === 'status' ||
    subresource === 'approval' ||
    subresource === 'ephemeralcontainers' ||
    subresource === 'resize'
      ? subresource
      : 'main';
  const options = {
    dryRun: isDryRun,
    fieldManager: writeManager(scope),
    admission: writeAdmission(scope, { subresource, dryRun: isDryRun }),
    warn: warnTo(scope),
  };
  const updated = await server.objects.guaranteedUpdate(
    kind,
    scope.namespace,
    name,
    updates,
    options,
    (current) => {
      const patched = applyPatch(current, body, contentType, kind.kind);
      if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
        throw StatusError.of('BadRequest', 'the patch must produce an object');
      }
      // A JSON patch can nest a deep value under a deep path: the result is bounded too.
      checkNestingDepth(patched);
      const obj = patched as KubeObject;
      checkPatched(write, obj);
      // A patch that carries a resourceVersion is a precondition, as kube-apiserver treats it.
      const wanted = (body as KubeObject)?.metadata?.resourceVersion;
      if (typeof wanted === 'string' && wanted !== current.metadata?.resourceVersion) {
        throw StatusError.of(
          'Conflict',
          `Operation cannot be fulfilled on ${qualifiedResource(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      return obj;
    },
  );
  replyObject(scope, 200, updated);
}
