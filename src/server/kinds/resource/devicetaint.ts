/**
 * A device taint (pkg/apis/resource/validation `validateDeviceTaint`), which ResourceSlices'
 * devices and DeviceTaintRules carry: a label name for key, a label value, an effect of None,
 * NoSchedule or NoExecute (checked when it changed; declarative validation reports the effect),
 * and its time added (pkg/apis/resource/v1/defaults.go `SetDefaults_DeviceTaint`: now, to the second).
 */

import { str } from '../access.js';
import { notSupported, required } from '../validation.js';
import type { SplitErrors } from './claim-spec.js';
import { validateLabelName, validateLabelValue } from './names.js';

/** The effects a device taint may have, sorted as the message lists them. */
export const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None'];

/** The time a taint without one was added: the server's now, to the second, RFC 3339. */
export function timeAddedNow(now: number = Date.now()): string {
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** `validateDeviceTaint` of `taint` at `path` (`old` the stored taint on an update). */
export function validateDeviceTaint(
  taint: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
  path: string,
  out: SplitErrors,
): void {
  out.hand.push(...validateLabelName(str(taint.key), `${path}.key`));
  const value = str(taint.value);
  if (value !== '') out.hand.push(...validateLabelValue(value, `${path}.value`));
  const effect = str(taint.effect);
  if (old !== undefined && str(old.effect) === effect) return;
  if (effect === '') out.dv.push(required(`${path}.effect`));
  else if (!TAINT_EFFECTS.includes(effect))
    out.dv.push(notSupported(`${path}.effect`, effect, TAINT_EFFECTS));
}
