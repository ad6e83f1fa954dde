/**
 * The two ways a verb's answer goes out, counted: as JSON, or as the object in the form the
 * Accept header asked for (metadata only, or a one-row Table).
 */

import type { KubeObject } from '../../protocol/events.js';
import { sendJson } from '../http/http-io.js';
import { answerText } from '../registry/answer-text.js';
import { partialObjectAnswer, writeOutputOf } from './partial-metadata.js';
import type { RequestScope } from './request-scope.js';
import { toTable } from './table.js';
import { tableRequest } from './table-response.js';

/** Sends `body` as JSON and counts its bytes. */
export function reply(scope: RequestScope, code: number, body: unknown): void {
  scope.server.countBytes(sendJson(scope.res, code, body));
}

/** Sends one object, or its one-row Table when the Accept header asks for a Table. */
export function replyObject(scope: RequestScope, code: number, obj: KubeObject): void {
  const { req, kind, query } = scope;
  const partial = writeOutputOf(req);
  if (partial) {
    reply(scope, code, partialObjectAnswer(kind, obj, partial));
    return;
  }
  const table = tableRequest(req, query);
  if (table) {
    const now = scope.server.clock.now();
    reply(scope, code, toTable(kind, [obj], { now, version: table.version, includeObject: table.include }));
    return;
  }
  // A write's answer comes with its text, made from the bytes just stored (registry/answer-text.ts).
  reply(scope, code, answerText(obj) ?? obj);
}
