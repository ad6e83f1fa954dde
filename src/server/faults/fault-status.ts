/**
 * The Status a failed request gets, in kube-apiserver's own shape for its code: the
 * constructors of k8s.io/apimachinery/pkg/api/errors/errors.go, with the message a real
 * server's own failure of that kind carries when the rule gives none.
 */
import { failureStatus, type Status } from '../../protocol/status.js';
import type { RequestAttributes } from './request-attributes.js';

/** The codes a rule may fail a request with. */
export const FAULT_CODES = [400, 403, 404, 409, 410, 429, 500, 503, 504] as const;

/** What a rule says about the answer. */
export interface FaultAnswer {
  code: number;
  message?: string;
  retryAfterSeconds?: number;
}

/** `schema.GroupResource.String()`: `pods`, `deployments.apps`. */
function qualified(attrs: RequestAttributes): string {
  return attrs.apiGroup === '' ? attrs.resource : `${attrs.resource}.${attrs.apiGroup}`;
}

/** `StatusDetails{Group, Kind: resource, Name}` as errors.go fills it for a resource (empty fields left out, as omitempty). */
function resourceDetails(attrs: RequestAttributes): { group?: string; kind: string; name?: string } {
  return {
    ...(attrs.name !== undefined && { name: attrs.name }),
    ...(attrs.apiGroup !== '' && { group: attrs.apiGroup }),
    kind: attrs.resource,
  };
}

/** Throws unless `code` is one {@link faultStatus} can answer with. */
export function checkFaultCode(code: number): void {
  if (!(FAULT_CODES as readonly number[]).includes(code)) {
    throw new Error(`failNext: code ${code} is not one of ${FAULT_CODES.join(', ')}`);
  }
}

/**
 * The Status for `answer` on the request `attrs`:
 * - 409 `NewConflict(resource, name, err)`: "Operation cannot be fulfilled on pods "x": " and
 *   the optimistic-lock message of the generic registry (storage.OptimisticLockErrorMsg);
 * - 429 `NewTooManyRequests(message, retryAfterSeconds)` with details.retryAfterSeconds and
 *   the Retry-After header that k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/
 *   writers.go `ErrorNegotiated` adds for it; the default message and 1 s are those of the
 *   max-in-flight filter (k8s.io/apiserver/pkg/server/filters/maxinflight.go `tooManyRequests`);
 * - 500 `NewInternalError(err)`: "Internal error occurred: " and the cause;
 * - 503 `NewServiceUnavailable(message)`;
 * - 504 `NewTimeoutError(message, retryAfterSeconds)`: "Timeout: " and the message of the
 *   request timeout filter (k8s.io/apiserver/pkg/server/filters/timeout.go);
 * - 400 `NewBadRequest`, 403 `NewForbidden`, 404 `NewNotFound`, 410 `NewResourceExpired`.
 */
export function faultStatus(answer: FaultAnswer, attrs: RequestAttributes): Status {
  const { message, retryAfterSeconds } = answer;
  const resource = qualified(attrs);
  const name = attrs.name ?? '';
  switch (answer.code) {
    case 409:
      return failureStatus(
        'Conflict',
        `Operation cannot be fulfilled on ${resource} ${JSON.stringify(name)}: ${message ?? 'the object has been modified; please apply your changes to the latest version and try again'}`,
        resourceDetails(attrs),
      );
    case 429:
      return failureStatus('TooManyRequests', message ?? 'Too many requests, please try again later.', {
        retryAfterSeconds: retryAfterSeconds ?? 1,
      });
    case 500: {
      const cause = message ?? 'fault injected by the test';
      return failureStatus('InternalError', `Internal error occurred: ${cause}`, {
        causes: [{ message: cause }],
      });
    }
    case 503:
      return failureStatus(
        'ServiceUnavailable',
        message ?? 'the server is currently unable to handle the request',
      );
    case 504:
      return failureStatus(
        'Timeout',
        `Timeout: ${message ?? 'request did not complete within requested timeout - context deadline exceeded'}`,
        retryAfterSeconds ? { retryAfterSeconds } : {},
      );
    case 400:
      return failureStatus('BadRequest', message ?? 'the server rejected our request for an unknown reason');
    case 403:
      return failureStatus(
        'Forbidden',
        `${resource}${name === '' ? '' : ` ${JSON.stringify(name)}`} is forbidden: ${message ?? 'fault injected by the test'}`,
        resourceDetails(attrs),
      );
    case 404:
      return failureStatus(
        'NotFound',
        message ?? `${resource} ${JSON.stringify(name)} not found`,
        resourceDetails(attrs),
      );
    case 410:
      return failureStatus('Expired', message ?? 'too old resource version: 1 (2)');
    default:
      checkFaultCode(answer.code);
      throw new Error('unreachable');
  }
}
