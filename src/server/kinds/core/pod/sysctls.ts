/**
 * A pod's sysctls (pkg/apis/core/validation/validation.go `validateSysctls`,
 * `ValidateHostSysctl`; pkg/proxy/util/sysctl `GetNamespace`): each name a dotted (or slashed)
 * sysctl of at most 253 characters, once each, and none of the host's namespaces' own when the
 * pod shares that namespace with the host.
 */
import { isObject, objects, str } from '../../access.js';
import type { FieldError } from '../../types.js';
import { duplicate, invalid, required } from '../../validation.js';

const SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
/** `sysctlContainSlashRegexp`, as its String() prints it in the message. */
const NAME_RE_TEXT = `^(${SEGMENT}[\\./])*${SEGMENT}$`;
const NAME_RE = new RegExp(NAME_RE_TEXT);
const MAX_LENGTH = 253;

/** The kernel namespace a sysctl belongs to (`GetNamespace`), for the host-sharing checks. */
function namespaceOf(name: string): 'net' | 'ipc' | undefined {
  const dotted = name.replace(/\//g, '.');
  if (dotted.startsWith('net.')) return 'net';
  if (dotted === 'kernel.sem' || /^kernel\.(shm|msg)/.test(dotted) || dotted.startsWith('fs.mqueue.'))
    return 'ipc';
  return undefined;
}

/** `validateSysctls` of `spec.securityContext.sysctls` at `path`. */
export function validateSysctls(spec: Record<string, unknown>, path: string): FieldError[] {
  const context = spec.securityContext;
  if (!isObject(context) || !Array.isArray(context.sysctls)) return [];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  objects(context.sysctls).forEach((sysctl, i) => {
    const at = `${path}[${i}].name`;
    const name = str(sysctl.name);
    if (name === '') errors.push(required(at));
    else if (name.length > MAX_LENGTH || !NAME_RE.test(name)) {
      errors.push(
        invalid(at, name, `must have at most ${MAX_LENGTH} characters and match regex ${NAME_RE_TEXT}`),
      );
    } else if (seen.has(name)) errors.push(duplicate(at, name));
    const ns = namespaceOf(name);
    if (spec.hostNetwork === true && ns === 'net') {
      errors.push(invalid(at, name, "may not be specified when 'hostNetwork' is true"));
    } else if (spec.hostIPC === true && ns === 'ipc') {
      errors.push(invalid(at, name, "may not be specified when 'hostIPC' is true"));
    }
    seen.add(name);
  });
  return errors;
}
