/**
 * The self-contained parts of a CRD spec, validated as
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * does (each function names its upstream twin): conversion (with
 * k8s.io/apiserver pkg/util/webhook's URL and service rules), printer
 * columns, the scale subresource's paths, and the names.
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import type { FieldError } from '../../kinds/types.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from '../../kinds/validation-names.js';
import { forbidden, invalid, notSupported, required } from './errors.js';

/** `validateEnumStrings`: required when `isRequired`, else one of `accepted`. */
export function validateEnumStrings(
  path: string,
  value: string,
  accepted: readonly string[],
  isRequired: boolean,
): FieldError[] {
  if (value === '') return isRequired ? [required(path)] : [];
  return accepted.includes(value) ? [] : [notSupported(path, value, accepted)];
}

/** `acceptedConversionReviewVersions`, sorted as `sets.String.List()` returns them. */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** `validateConversionReviewVersions`. */
function validateConversionReviewVersions(
  versions: unknown[],
  requireRecognized: boolean,
  path: string,
): FieldError[] {
  if (versions.length < 1) return [required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  versions.forEach((raw, i) => {
    const v = str(raw);
    if (seen.has(v)) {
      errs.push(invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(`${path}[${i}]`, v, msg));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) {
    errs.push(invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

/** apiserver `webhook.ValidateWebhookURL` (forceHttps), on what WHATWG URL parsing can tell. */
function validateWebhookURL(path: string, raw: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // Go's url.Parse accepts what WHATWG refuses (a relative "foo"): a scheme only before a ':', and no host.
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw)?.[1].toLowerCase() ?? '';
    const errs: FieldError[] = [];
    if (scheme !== 'https') errs.push(invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
    return [...errs, invalid(path, '', `host must be specified${form}`)];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalid(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(invalid(path, u.host, `host must be specified${form}`));
  if (u.username !== '' || u.password !== '') {
    const user = u.password !== '' ? `${u.username}:${u.password}` : u.username;
    errs.push(invalid(path, user, 'user information is not permitted in the URL'));
  }
  if (u.hash.length > 1) errs.push(invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search.length > 1)
    errs.push(invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** apiserver `webhook.ValidateWebhookService` (port defaulted to 443 by `SetDefaults_ServiceReference`). */
function validateWebhookService(path: string, service: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (str(service.name) === '') errs.push(required(`${path}.name`));
  if (str(service.namespace) === '') errs.push(required(`${path}.namespace`));
  const port = service.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0)
    errs.push(invalid(`${path}.port`, port, `port is not valid: ${portErrs.join(', ')}`));
  if (typeof service.path !== 'string') return errs;
  const urlPath = service.path;
  if (urlPath === '/' || urlPath === '') return errs;
  if (urlPath === '//') return [...errs, invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(`${path}.path`, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(invalid(`${path}.path`, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step))
      errs.push(invalid(`${path}.path`, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/**
 * `validateCustomResourceConversion`, on the v1 object but with the internal
 * paths (`Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion`
 * lifts `webhook.clientConfig` to `webhookClientConfig` and
 * `webhook.conversionReviewVersions` to `conversionReviewVersions`).
 */
export function validateCustomResourceConversion(
  conversion: JsonObject | undefined,
  requireRecognized: boolean,
  path: string,
): FieldError[] {
  if (conversion === undefined) return [];
  const strategy = str(conversion.strategy);
  const webhook = isObject(conversion.webhook) ? conversion.webhook : undefined;
  const clientConfig = webhook && isObject(webhook.clientConfig) ? webhook.clientConfig : undefined;
  const reviewVersions = webhook ? arr(webhook.conversionReviewVersions) : [];
  const errs = validateEnumStrings(`${path}.strategy`, strategy, ['None', 'Webhook'], true);
  if (strategy === 'Webhook') {
    if (clientConfig === undefined) {
      errs.push(required(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    } else {
      const hasURL = typeof clientConfig.url === 'string';
      const hasService = isObject(clientConfig.service);
      if (hasURL === hasService) {
        errs.push(required(`${path}.webhookClientConfig`, 'exactly one of url or service is required'));
      } else if (hasURL) {
        errs.push(...validateWebhookURL(`${path}.webhookClientConfig.url`, str(clientConfig.url)));
      } else {
        errs.push(
          ...validateWebhookService(`${path}.webhookClientConfig.service`, rec(clientConfig.service)),
        );
      }
      // The CA bundle is not checked: `allowInvalidCABundle` holds until a CRD is Established.
    }
    errs.push(
      ...validateConversionReviewVersions(
        reviewVersions,
        requireRecognized,
        `${path}.conversionReviewVersions`,
      ),
    );
  } else {
    if (clientConfig !== undefined) {
      errs.push(
        forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'),
      );
    }
    if (reviewVersions.length > 0) {
      errs.push(
        forbidden(
          `${path}.conversionReviewVersions`,
          'should not be set when strategy is not set to Webhook',
        ),
      );
    }
  }
  return errs;
}

/** `printerColumnDatatypes` and `customResourceColumnDefinitionFormats`, sorted as `sets.String.List()`. */
const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** `validateSimpleJSONPath`. */
export function validateSimpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** `ValidateCustomResourceColumnDefinition` (note upstream's `JSONPath` path segment, kept). */
export function validateColumn(colIn: unknown, path: string): FieldError[] {
  const col = rec(colIn);
  const errs: FieldError[] = [];
  if (str(col.name) === '') errs.push(required(`${path}.name`));
  const type = str(col.type);
  if (type === '') errs.push(required(`${path}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
  else if (!COLUMN_TYPES.includes(type))
    errs.push(invalid(`${path}.type`, type, `must be one of ${COLUMN_TYPES.join(',')}`));
  const format = str(col.format);
  if (format !== '' && !COLUMN_FORMATS.includes(format)) {
    errs.push(invalid(`${path}.format`, format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  }
  const jsonPath = str(col.jsonPath);
  if (jsonPath === '') errs.push(required(`${path}.JSONPath`));
  else errs.push(...validateSimpleJSONPath(jsonPath, `${path}.JSONPath`));
  return errs;
}

/** `ValidateCustomResourceDefinitionSubresources`: the scale paths. */
export function validateSubresources(sub: JsonObject | undefined, path: string): FieldError[] {
  if (sub === undefined || !isObject(sub.scale)) return [];
  const scale = sub.scale;
  const errs: FieldError[] = [];
  const underOne = (name: string, prefixes: string[], message: string): void => {
    const value = str(scale[name]);
    const at = `${path}.scale.${name}`;
    if (value === '') {
      errs.push(required(at));
      return;
    }
    const pathErrs = validateSimpleJSONPath(value, at);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(invalid(at, value, message));
  };
  underOne('specReplicasPath', ['.spec.'], 'should be a json path under .spec');
  underOne('statusReplicasPath', ['.status.'], 'should be a json path under .status');
  if (str(scale.labelSelectorPath) !== '') {
    underOne(
      'labelSelectorPath',
      ['.spec.', '.status.'],
      'should be a json path under either .spec or .status',
    );
  }
  return errs;
}

/** `ValidateCustomResourceDefinitionNames` (spec.names and status.acceptedNames alike). */
export function validateNames(namesIn: unknown, path: string): FieldError[] {
  const names = rec(namesIn);
  const errs: FieldError[] = [];
  const label = (field: string, value: string, prefix = ''): void => {
    const problems = isDNS1035Label(prefix ? value.toLowerCase() : value);
    if (value.length > 0 && problems.length > 0)
      errs.push(invalid(`${path}.${field}`, value, prefix + problems.join(',')));
  };
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  label('plural', str(names.plural));
  label('singular', str(names.singular));
  label('kind', kind, 'may have mixed case, but should otherwise match: ');
  label('listKind', listKind, 'may have mixed case, but should otherwise match: ');
  arr(names.shortNames).forEach((s, i) => {
    const problems = isDNS1035Label(str(s));
    if (problems.length > 0) errs.push(invalid(`${path}.shortNames[${i}]`, str(s), problems.join(',')));
  });
  if (kind.length > 0 && kind === listKind)
    errs.push(invalid(`${path}.listKind`, listKind, 'kind and listKind may not be the same'));
  arr(names.categories).forEach((c, i) => {
    const problems = isDNS1035Label(str(c));
    if (problems.length > 0) errs.push(invalid(`${path}.categories[${i}]`, str(c), problems.join(',')));
  });
  return errs;
}
