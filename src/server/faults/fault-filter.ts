/**
 * The faults' step in the server's handler chain (http/handler-chain.ts), once a request's resource
 * is known: the request is recorded (`onRequest`, as its answer goes out) and, when a `failNext`
 * rule matches it, answered with the rule's Status before its body is read, so nothing is looked
 * up or written. A server that records nothing and holds no rule pays one check.
 */
import type { Filter } from '../http/api-request.js';
import { sendStatus } from '../http/http-io.js';
import { queryFlag } from '../http/query-flag.js';
import type { FailRules } from './fail-rules.js';
import { type RequestRecord, requestAttributes } from './request-attributes.js';
import { recordAnswer } from './request-recorder.js';

/** What the filter needs of the server. */
export interface FaultFilterOptions {
  rules: FailRules;
  onRequest: ((record: RequestRecord) => void) | undefined;
  /** Counts the bytes of a fault's answer. */
  countBytes(bytes: number): void;
}

/** Records resource requests and answers those a rule fails. */
export function withFaults({ rules, onRequest, countBytes }: FaultFilterOptions): Filter {
  return (request, next) => {
    const { info, req, res, query } = request;
    if (!info || !(onRequest || rules.active)) return next(request);
    const attrs = requestAttributes(req, info, query, request.received);
    if (onRequest) {
      // As the handler decides (handlers/resource-handler.ts): only a GET streams.
      const streaming =
        request.method === 'GET' &&
        (info.watchPath || (info.subresource === undefined && queryFlag(query.get('watch')) === true));
      recordAnswer(res, attrs, streaming, onRequest);
    }
    const fault = rules.take(attrs);
    if (!fault) return next(request);
    countBytes(sendStatus(res, fault));
    return Promise.resolve();
  };
}
