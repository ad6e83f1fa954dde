/**
 * The string rules of apimachinery pkg/util/validation/validation.go the networking kinds use
 * beyond the shared ones (validation-names.ts): `IsWildcardDNS1123Subdomain` (Ingress hosts) and
 * `IsDomainPrefixedPath` (an IngressClass's controller), messages word for word.
 */

import type { FieldError } from '../types.js';
import { invalid, required } from '../validation.js';
import { isDNS1123Subdomain, maxLenError } from '../validation-names.js';

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const WILDCARD_FMT = `\\*\\.${LABEL}(\\.${LABEL})*`;
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** `IsWildcardDNS1123Subdomain`: `*.` and a DNS subdomain, at most 253 characters. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!WILDCARD_RE.test(value)) {
    errs.push(
      `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${WILDCARD_FMT}')`,
    );
  }
  return errs;
}

/** `IsDomainPrefixedPath`: `host/path`, the host a DNS subdomain, the path of URL characters. */
export function validateDomainPrefixedPath(field: string, value: string): FieldError[] {
  if (value === '') return [required(field)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || path === '') {
    return [invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errors = isDNS1123Subdomain(host).map((msg) => invalid(field, host, msg));
  if (!HTTP_PATH_RE.test(path)) {
    errors.push(invalid(field, path, `Invalid path (regex used for validation is '${HTTP_PATH_FMT}')`));
  }
  return errors;
}
