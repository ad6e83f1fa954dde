/**
 * DeleteOptions of a DELETE, from its body and query: propagation policy
 * (with the old `orphanDependents`), preconditions, dryRun.
 */
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../protocol/status.js';
import { MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from '../http/http-io.js';
import { PROTOBUF_CONTENT_TYPE } from '../http/media-types.js';
import { queryFlag } from '../http/query-flag.js';
import type { DeleteOptions } from '../registry/object-storage.js';
import type { Query } from './resource-context.js';
import { dryRunErrors, type OptionError, optionsInvalid } from './write-input.js';

/** Reads the DeleteOptions of a DELETE; a malformed body is a 400, invalid options a 422. */
export async function deleteOptions(req: IncomingMessage, query: Query): Promise<DeleteOptions> {
  const raw = await readBody(req, MAX_BODY_BYTES);
  let body: {
    propagationPolicy?: unknown;
    preconditions?: unknown;
    dryRun?: unknown;
    orphanDependents?: unknown;
  } = {};
  const isProtobuf = raw.length > 0 && mediaType(req.headers['content-type']) === PROTOBUF_CONTENT_TYPE;
  if (isProtobuf) {
    // client-go sends a delete's DeleteOptions in the client's content type (rest/request.go
    // `Body`), and its typed clients switch to protobuf for built-in kinds by themselves
    // (gentype `UseProtobufAsDefaultIfPreferred`): decoded as delete.go `DeleteResource` does.
    const { decodeProtobufDeleteOptions } = await import('../http/protobuf-body.js');
    body = (await decodeProtobufDeleteOptions(raw)) as typeof body;
  } else if (raw.length > 0 && raw.toString('utf8').trim() !== '') {
    const parsed = parseJsonBody(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw StatusError.of('BadRequest', 'DeleteOptions must be an object');
    }
    checkDeleteOptionsKind(parsed as { apiVersion?: unknown; kind?: unknown });
    body = parsed as typeof body;
  }
  // delete.go `DeleteResource` reads the options from the body when there is one, and from the
  // query only when there is none: a body's options stand alone.
  const hasBody = raw.length > 0 && (isProtobuf || raw.toString('utf8').trim() !== '');
  const policy = hasBody ? body.propagationPolicy : (query.get('propagationPolicy') ?? undefined);
  const orphanDependents = hasBody ? body.orphanDependents : queryFlag(query.get('orphanDependents'));
  const dryRunValues = hasBody
    ? Array.isArray(body.dryRun)
      ? body.dryRun.map(String)
      : []
    : query.getAll('dryRun');
  // meta/v1 validation `ValidateDeleteOptions`, answered as delete.go does: one 422 of them all.
  const errors: OptionError[] = [];
  if (
    orphanDependents !== undefined &&
    orphanDependents !== null &&
    policy !== undefined &&
    policy !== null
  ) {
    errors.push({
      field: 'propagationPolicy',
      reason: 'FieldValueInvalid',
      body: `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`,
    });
  }
  if (policy !== undefined && policy !== null && !POLICIES.includes(policy as string)) {
    errors.push({
      field: 'propagationPolicy',
      reason: 'FieldValueNotSupported',
      body: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
    });
  }
  errors.push(...dryRunErrors(dryRunValues));
  if (errors.length > 0) throw optionsInvalid('DeleteOptions', errors);
  // The deprecated bool is an explicit choice either way: false takes both garbage collector
  // finalizers off, as Background does (store.go `shouldOrphanDependents`/`shouldDeleteDependents`).
  const fromOrphan =
    orphanDependents === true ? 'Orphan' : orphanDependents === false ? 'Background' : undefined;
  const chosen = policy !== undefined && policy !== null ? policy : fromOrphan;
  const pre = body.preconditions as DeleteOptions['preconditions'] | undefined;
  return {
    propagationPolicy: chosen as DeleteOptions['propagationPolicy'],
    preconditions: pre ?? undefined,
    dryRun: dryRunValues.length > 0,
  };
}

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** meta.k8s.io/v1 kinds of the meta internal scheme other than DeleteOptions (internalversion/register.go). */
const META_V1_KINDS = new Set([
  'ListOptions',
  'GetOptions',
  'PatchOptions',
  'CreateOptions',
  'UpdateOptions',
  'WatchEvent',
  'Table',
  'TableOptions',
  'PartialObjectMetadata',
  'PartialObjectMetadataList',
]);

/**
 * delete.go `DeleteResource`/`DeleteCollection` decode a body with the meta internal scheme's
 * codecs, defaulting its kind to DeleteOptions and its version to meta.k8s.io/v1: DeleteOptions
 * is registered unversioned (any apiVersion decodes), as are CreateOptions and UpdateOptions,
 * which then fail conversion; any other kind is not registered at all. Both are 400s, before the
 * object is looked up, so an object sent as a DELETE's body deletes nothing (kube-apiserver
 * 1.37, as probed: `no kind "Pod" is registered for version "v1" in scheme ...`).
 */
function checkDeleteOptionsKind(body: { apiVersion?: unknown; kind?: unknown }): void {
  const kind = body.kind;
  if (typeof kind !== 'string' || kind === '' || kind === 'DeleteOptions') return;
  const apiVersion =
    typeof body.apiVersion === 'string' && body.apiVersion !== '' ? body.apiVersion : 'meta.k8s.io/v1';
  const unversioned = kind === 'CreateOptions' || kind === 'UpdateOptions';
  if (unversioned || (apiVersion === 'meta.k8s.io/v1' && META_V1_KINDS.has(kind))) {
    throw StatusError.of('BadRequest', `converting (v1.${kind}) to (v1.DeleteOptions): unknown conversion`);
  }
  throw StatusError.of(
    'BadRequest',
    `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`,
  );
}
