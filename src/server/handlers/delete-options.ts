/**
 * DeleteOptions of a DELETE, from its body and query: propagation policy
 * (with the old `orphanDependents`), preconditions, dryRun.
 */
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../protocol/status.js';
import { MAX_BODY_BYTES, mediaType, parseJsonBody, readBody } from '../http/http-io.js';
import { PROTOBUF_CONTENT_TYPE } from '../http/media-types.js';
import type { DeleteOptions } from '../storage/object-storage.js';
import type { Query } from './resource-context.js';
import { dryRun } from './write-input.js';

/** Reads the DeleteOptions of a DELETE; a malformed body or policy is a 400. */
export async function deleteOptions(req: IncomingMessage, query: Query): Promise<DeleteOptions> {
  const raw = await readBody(req, MAX_BODY_BYTES);
  let body: {
    propagationPolicy?: unknown;
    preconditions?: unknown;
    dryRun?: unknown;
    orphanDependents?: unknown;
  } = {};
  if (raw.length > 0 && mediaType(req.headers['content-type']) === PROTOBUF_CONTENT_TYPE) {
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
    body = parsed as typeof body;
  }
  const policy =
    query.get('propagationPolicy') ??
    body.propagationPolicy ??
    // The deprecated bool is an explicit choice either way: false takes both garbage collector
    // finalizers off, as Background does (store.go `shouldOrphanDependents`/`shouldDeleteDependents`).
    (body.orphanDependents === true ? 'Orphan' : body.orphanDependents === false ? 'Background' : undefined);
  if (policy !== undefined && policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground') {
    throw StatusError.of(
      'BadRequest',
      `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Background", "Foreground", "Orphan"`,
    );
  }
  const dry = dryRun(query) || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  const pre = body.preconditions as DeleteOptions['preconditions'] | undefined;
  return { propagationPolicy: policy, preconditions: pre ?? undefined, dryRun: dry };
}
