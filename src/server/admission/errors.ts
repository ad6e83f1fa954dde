/**
 * The Status a client gets when admission stops a write, as kube-apiserver words it:
 * a hook's denial (k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go
 * `ToStatusErr`, the 1.27-1.33 form), a hook that could not be called under failurePolicy Fail
 * (`apierrors.NewInternalError` of util/webhook/error.go `ErrCallingWebhook`), a dry run a hook
 * does not support (`NewDryRunUnsupportedErr`).
 */
import { type Status, StatusError } from '../../protocol/status.js';
import type { AdmissionStatus } from './types.js';

/**
 * A webhook call that failed (util/webhook/error.go `ErrCallingWebhook`): failurePolicy decides
 * whether the write fails (Fail: a 500) or goes on without the hook (Ignore).
 */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
  ) {
    // `ErrCallingWebhook.Error`.
    super(`failed calling webhook "${webhookName}": ${reason}`);
  }
}

/** apimachinery `errors.NewInternalError(err)`. */
export function internalError(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  });
}

/**
 * statuserror.go `ToStatusErr`: a denial keeps the hook's Status, its code raised to at least 400
 * and its message prefixed with `admission webhook "<name>" denied the request`.
 */
export function deniedError(webhookName: string, result: AdmissionStatus | undefined): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  let message: string;
  if (result?.message) message = `${deniedBy}: ${result.message}`;
  else if (result?.reason) message = `${deniedBy}: ${result.reason}`;
  else message = `${deniedBy} without explanation`;
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code };
  if (result?.reason) status.reason = result.reason;
  // Go's field order: message, reason, details, code.
  const { code: c, ...rest } = status;
  const details = (result as { details?: Status['details'] } | undefined)?.details;
  return new StatusError({ ...rest, ...(details && { details }), code: c } as Status);
}

/** `NewDryRunUnsupportedErr`: a 400, whatever the failure policy. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return StatusError.of('BadRequest', `admission webhook "${webhookName}" does not support dry run`);
}

/**
 * mutating/dispatcher.go `callAttrMutatingHook`: a non-empty patch where there is no object to
 * apply it to (a DELETE).
 */
export function patchWithoutObject(webhookName: string): StatusError {
  return internalError(
    `admission webhook "${webhookName}" attempted to modify the object, which is not supported for this operation`,
  );
}
