/**
 * What every resource handler shares: the server's side of a request (the
 * context) and the two ways an answer goes out, counted, as JSON or as the
 * Table the Accept header asked for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../protocol/events.js';
import type { Admission } from '../admission/admission.js';
import type { UserInfo } from '../http/auth.js';
import { sendJson } from '../http/http-io.js';
import type { KindTable } from '../kinds/served/kind-table.js';
import type { ResourceKind } from '../kinds/types.js';
import { answerText } from '../registry/answer-text.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import type { ListContext } from './list.js';
import { partialObjectAnswer, writeOutputOf } from './partial-metadata.js';
import { toTable } from './table.js';
import { tableRequest } from './table-response.js';
import type { WatchContext } from './watch.js';

/** Everything a resource request needs from the server. */
export interface ResourceContext extends ListContext, WatchContext {
  objects: ObjectStorage;
  /** The kinds this server serves now. */
  kinds: KindTable;
  /** Runs the namespace controller's cleanup for a terminating namespace. */
  finalizeNamespace(name: string): void;
  /** Counts bytes of non-watch answers. */
  countBytes(bytes: number): void;
  /**
   * False turns off the typed-object check of writes (schema/): only the write benchmark sets
   * it, to measure what the check costs. Unset means on.
   */
  typeCheck?: boolean;
  /** Admission hooks and webhooks (admission/); writes skip it while none is configured. */
  admission?: Admission;
  /** The authenticated user of a request, for admission's `userInfo`. */
  userOf?(req: IncomingMessage): UserInfo | undefined;
}

/** The query parameters of a request. */
export type Query = URLSearchParams;

/** Sends `body` as JSON and counts its bytes. */
export function reply(ctx: ResourceContext, res: ServerResponse, code: number, body: unknown): void {
  ctx.countBytes(sendJson(res, code, body));
}

/** Sends one object, or its one-row Table when the Accept header asks for a Table. */
export function replyObject(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  kind: ResourceKind,
  obj: KubeObject,
  query: Query,
): void {
  const partial = writeOutputOf(req);
  if (partial) {
    reply(ctx, res, code, partialObjectAnswer(kind, obj, partial));
    return;
  }
  const table = tableRequest(req, query);
  if (table) {
    reply(
      ctx,
      res,
      code,
      toTable(kind, [obj], { now: ctx.clock.now(), version: table.version, includeObject: table.include }),
    );
    return;
  }
  // A write's answer comes with its text, made from the bytes just stored (storage/answer-text.ts).
  reply(ctx, res, code, answerText(obj) ?? obj);
}
