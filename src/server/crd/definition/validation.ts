/**
 * Validation of a CustomResourceDefinition (apiextensions.k8s.io/v1) on
 * create and update, returning field errors with kube-apiserver's paths and
 * words: k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go (`ValidateCustomResourceDefinition`,
 * `ValidateCustomResourceDefinitionUpdate` and what they call), after what
 * the request path does first: v1 defaulting (`SetDefaults_CustomResourceDefinitionSpec`,
 * pkg/apis/apiextensions/v1/defaults.go), the internal conversion
 * (internal.ts) and the strategy's `PrepareForCreate` /
 * `PrepareForUpdate` (pkg/registry/customresourcedefinition/strategy.go,
 * which decide `status.storedVersions`).
 *
 * CEL rules are compiled and their cost estimated (schema-lists.ts `celRuleCompilation`, README
 * of ../cel for how close the estimate is). Not yet: defaults inside embedded metadata, the
 * CA bundle check (upstream allows a bad one until the CRD is Established
 * anyway), and the update-time leniency for schemas stored before a rule existed (a v1 object
 * created here always met them).
 */
import { arr, isObject, type JsonObject, rec, str } from '../../kinds/access.js';
import type { FieldError } from '../../kinds/types.js';
import { validateObjectMeta } from '../../kinds/validation.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../kinds/validation-names.js';
import { API_APPROVAL_ANNOTATION, apiApprovalState, isProtectedCommunityGroup } from './conditions.js';
import { invalid, key, required } from './errors.js';
import { goVersions, type InternalSpec, type InternalVersion, toInternalSpec } from './internal.js';
import {
  validateColumn,
  validateCustomResourceConversion,
  validateEnumStrings,
  validateNames,
  validateSubresources,
} from './parts.js';
import { celRuleCompilation } from './schema-lists.js';
import { schemaHas, validateCustomResourceValidation } from './schema-rules.js';
import { validateSelectableFields } from './selectable.js';

/** The knobs upstream's `validationOptions` turns on an update (create uses the strict ones). */
interface Options {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  /** Versions ("" for the top level) whose more-than-8 selectable fields are unchanged, so still allowed. */
  allowTooManySelectableFields: Set<string>;
  /** Versions whose schema the update leaves as it was: their rules' own cost is not judged again. */
  versionsWithUnchangedSchemas: Set<string>;
}

/** `SetDefaults_CustomResourceDefinitionSpec` on a copy: singular, listKind, conversion strategy. */
function defaultedSpec(specIn: unknown): JsonObject {
  const spec = structuredClone(rec(specIn));
  const names = isObject(spec.names) ? spec.names : {};
  spec.names = names;
  const kind = str(names.kind);
  if (str(names.singular) === '') names.singular = kind.toLowerCase();
  if (str(names.listKind) === '' && kind !== '') names.listKind = `${kind}List`;
  if (!isObject(spec.conversion)) spec.conversion = { strategy: 'None' };
  return spec;
}

const preserveUnknown = (spec: InternalSpec): boolean => spec.preserveUnknownFields === true;
const hasStatus = (sub: JsonObject | undefined): boolean => sub !== undefined && isObject(sub.status);

/**
 * A schema's errors, then, when it has none (upstream compiles CEL only in a valid structural
 * schema), its rules' compilation and cost errors (schema-lists.ts `celRuleCompilation`).
 */
function withCel(
  validation: JsonObject | undefined,
  schemaErrs: FieldError[],
  path: string,
  suppressPerExpressionCost: boolean,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (schemaErrs.length > 0 || !isObject(schema)) return schemaErrs;
  return celRuleCompilation(schema, `${path}.openAPIV3Schema`, suppressPerExpressionCost);
}

/**
 * validation.go `findVersionsWithUnchangedSchemas`: versions whose schema (their own or the
 * top-level one, `GetSchemaForVersion`) is the same before and after an update.
 */
function versionsWithUnchangedSchemas(spec: InternalSpec, old: InternalSpec): Set<string> {
  const schemaOf = (s: InternalSpec, name: string): unknown => {
    const v = s.versions.find((x) => x.name === name);
    return v?.schema?.openAPIV3Schema ?? s.validation?.openAPIV3Schema;
  };
  const out = new Set<string>();
  for (const v of spec.versions) {
    if (!old.versions.some((o) => o.name === v.name)) continue;
    const now = schemaOf(spec, v.name);
    if (now !== undefined && JSON.stringify(now) === JSON.stringify(schemaOf(old, v.name))) out.add(v.name);
  }
  return out;
}

/** `validateCustomResourceDefinitionVersion`. */
function validateVersion(v: InternalVersion, spec: InternalSpec, opts: Options, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const warning = v.deprecationWarning;
  if (!v.deprecated && warning !== undefined && warning !== null) {
    errs.push(invalid(`${path}.deprecationWarning`, warning, 'can only be set for deprecated versions'));
  } else if (typeof warning === 'string') {
    if (warning.length > 256)
      errs.push(invalid(`${path}.deprecationWarning`, warning, 'must be <= 256 characters long'));
    if (warning.length === 0)
      errs.push(invalid(`${path}.deprecationWarning`, warning, 'must not be an empty string'));
    // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space; the index is in bytes.
    let offset = 0;
    for (const ch of warning) {
      if (ch !== ' ' && !/^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) {
        const detail = `must only contain printable UTF-8 characters; non-printable character found at index ${offset}`;
        errs.push(invalid(`${path}.deprecationWarning`, warning, detail));
        break;
      }
      offset += Buffer.byteLength(ch);
    }
  }
  // getSubresourcesForVersion: per-version ones when any version has them, else the top level.
  const perVersion = spec.versions.some((x) => x.subresources !== undefined);
  const subresources = perVersion ? v.subresources : spec.subresources;
  errs.push(
    ...withCel(
      v.schema,
      validateCustomResourceValidation(v.schema, hasStatus(subresources), `${path}.schema`),
      `${path}.schema`,
      opts.versionsWithUnchangedSchemas.has(v.name),
    ),
  );
  errs.push(...validateSubresources(v.subresources, `${path}.subresources`));
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    errs.push(...validateColumn(c, `${path}.additionalPrinterColumns[${i}]`));
  });
  if ((v.selectableFields ?? []).length > 0) {
    if (!isObject(v.schema?.openAPIV3Schema)) {
      errs.push(
        invalid(
          `${path}.selectableFields`,
          '',
          'may only be set when `version.schema.openAPIV3Schema` is not included',
        ),
      );
    } else {
      errs.push(
        ...validateSelectableFields(
          v.selectableFields ?? [],
          v.schema.openAPIV3Schema,
          `${path}.selectableFields`,
          opts.allowTooManySelectableFields.has(v.name),
        ),
      );
    }
  }
  return errs;
}

/** `validateCustomResourceDefinitionSpec` (the top-level/per-version exclusivity checks cannot fail on a v1 object). */
function validateSpec(spec: InternalSpec, opts: Options, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.group === '') errs.push(required(`${path}.group`));
  else if (isDNS1123Subdomain(spec.group).length > 0) {
    errs.push(invalid(`${path}.group`, spec.group, isDNS1123Subdomain(spec.group).join(',')));
  } else if (spec.group.split('.').length < 2) {
    errs.push(invalid(`${path}.group`, spec.group, 'should be a domain with at least one dot'));
  }
  errs.push(...validateEnumStrings(`${path}.scope`, spec.scope, ['Cluster', 'Namespaced'], true));
  if (opts.requireOpenAPISchema) {
    if (!isObject(spec.validation?.openAPIV3Schema)) {
      spec.versions.forEach((v, i) => {
        if (!isObject(v.schema?.openAPIV3Schema))
          errs.push(required(`${path}.versions[${i}].schema.openAPIV3Schema`));
      });
    }
  } else if (!preserveUnknown(spec) && !isObject(spec.validation?.openAPIV3Schema)) {
    spec.versions.forEach((v, i) => {
      if (v.served && !isObject(v.schema?.openAPIV3Schema)) {
        errs.push(
          required(
            `${path}.versions[${i}].schema.openAPIV3Schema`,
            'because otherwise all fields are pruned',
          ),
        );
      }
    });
  }
  const schemas = [spec.validation?.openAPIV3Schema, ...spec.versions.map((v) => v.schema?.openAPIV3Schema)];
  if (
    preserveUnknown(spec) &&
    schemas.some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null))
  ) {
    errs.push(
      invalid(`${path}.preserveUnknownFields`, true, 'must be false in order to use defaults in the schema'),
    );
  }
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const nameErrs = isDNS1035Label(v.name);
    if (nameErrs.length > 0) errs.push(invalid(`${path}.versions[${i}].name`, v.name, nameErrs.join(',')));
    errs.push(...validateVersion(v, spec, opts, `${path}.versions[${i}]`));
  });
  // The versions as Go prints them (every schema in full): only rendered for an error.
  const versionsValue = () => goVersions(spec.versionsSent ? spec.versions : undefined);
  if (!unique) errs.push(invalid(`${path}.versions`, versionsValue(), 'must contain unique version names'));
  if (storageCount !== 1) {
    errs.push(
      invalid(`${path}.versions`, versionsValue(), 'must have exactly one version marked as storage version'),
    );
  }
  // The conversion copies versions[0].name to the internal spec.version, which is checked again.
  const version = spec.versions[0]?.name ?? '';
  if (version !== '' && isDNS1035Label(version).length > 0) {
    errs.push(invalid(`${path}.version`, version, isDNS1035Label(version).join(',')));
  }
  for (const name of ['plural', 'singular', 'kind', 'listKind']) {
    if (str(spec.names[name]) === '') errs.push(required(`${path}.names.${name}`));
  }
  errs.push(...validateNames(spec.names, `${path}.names`));
  const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  errs.push(
    ...withCel(
      spec.validation,
      validateCustomResourceValidation(spec.validation, anyStatus, `${path}.validation`),
      `${path}.validation`,
      // The top-level schema is judged as the internal `spec.version`'s, the first version.
      opts.versionsWithUnchangedSchemas.has(spec.versions[0]?.name ?? ''),
    ),
  );
  errs.push(...validateSubresources(spec.subresources, `${path}.subresources`));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => {
    errs.push(...validateColumn(c, `${path}.additionalPrinterColumns[${i}]`));
  });
  if ((spec.selectableFields ?? []).length > 0) {
    if (spec.validation === undefined) {
      errs.push(
        invalid(`${path}.selectableFields`, '', 'may only be set when validations.schema is included'),
      );
    } else {
      errs.push(
        ...validateSelectableFields(
          spec.selectableFields ?? [],
          spec.validation.openAPIV3Schema,
          `${path}.selectableFields`,
          opts.allowTooManySelectableFields.has(''),
        ),
      );
    }
  }
  const strategy = str(spec.conversion?.strategy);
  if (spec.conversion !== undefined && strategy !== 'None' && preserveUnknown(spec)) {
    errs.push(
      invalid(`${path}.conversion.strategy`, strategy, 'must be None if spec.preserveUnknownFields is true'),
    );
  }
  errs.push(
    ...validateCustomResourceConversion(
      spec.conversion,
      opts.requireRecognizedConversionReviewVersion,
      `${path}.conversion`,
    ),
  );
  return errs;
}

/** `ValidateCustomResourceDefinitionStoredVersions`. */
function validateStoredVersions(stored: string[], versions: InternalVersion[], path: string): FieldError[] {
  if (stored.length === 0) return [invalid(path, null, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of versions) {
    if (v.storage && !remaining.has(v.name)) {
      errs.push(invalid(path, stored, `must have the storage version ${v.name}`));
    }
    remaining.delete(v.name);
  }
  for (const [v, i] of remaining) {
    errs.push(
      invalid(
        `${path}[${i}]`,
        v,
        `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
      ),
    );
  }
  return errs;
}

/** `validateAPIApproval`: a protected group needs the approval annotation (unless it did not change). */
function validateAPIApproval(crd: JsonObject, old: JsonObject | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(str(rec(crd.spec).group))) return [];
  const annotations = rec(rec(crd.metadata).annotations);
  const [state, reason] = apiApprovalState(annotations);
  if (old !== undefined && apiApprovalState(rec(rec(old.metadata).annotations))[0] === state) return [];
  const path = key('metadata.annotations', API_APPROVAL_ANNOTATION);
  if (state === 'missing') return [required(path, reason)];
  if (state === 'invalid') return [invalid(path, str(annotations[API_APPROVAL_ANNOTATION]), reason)];
  return [];
}

/** `validatePreserveUnknownFields`: v1 only lets an object that already had it keep `true`. */
function validatePreserveUnknownFields(crd: JsonObject, old: JsonObject | undefined): FieldError[] {
  if (old !== undefined && rec(old.spec).preserveUnknownFields === true) return [];
  if (rec(crd.spec).preserveUnknownFields !== true) return [];
  return [
    invalid(
      'spec.preserveUnknownFields',
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

/** The first storage version's name, appended to stored versions by `PrepareForCreate`/`PrepareForUpdate`. */
function storedVersionsAfter(stored: string[], spec: InternalSpec): string[] {
  const storage = spec.versions.find((v) => v.storage);
  return storage === undefined || stored.includes(storage.name) ? stored : [...stored, storage.name];
}

/** The metadata name rule of `ValidateCustomResourceDefinition`: a DNS subdomain equal to `<plural>.<group>`. */
function crdNameCheck(spec: InternalSpec): (name: string) => string[] {
  return (name) => {
    const problems = isDNS1123Subdomain(name);
    if (name !== `${str(spec.names.plural)}.${spec.group}`)
      problems.push('must be spec.names.plural+"."+spec.group');
    return problems;
  };
}

/** Field errors of a CRD being created (`ValidateCustomResourceDefinition`); empty when valid. */
export function validateCustomResourceDefinition(crdIn: unknown): FieldError[] {
  const crd = rec(crdIn);
  const spec = toInternalSpec(defaultedSpec(crd.spec));
  const opts: Options = {
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    allowTooManySelectableFields: new Set(),
    versionsWithUnchangedSchemas: new Set(),
  };
  return [
    ...validateObjectMeta(crd, crdNameCheck(spec)),
    ...validateSpec(spec, opts, 'spec'),
    // PrepareForCreate resets status, so acceptedNames are empty and valid.
    ...validateStoredVersions(storedVersionsAfter([], spec), spec.versions, 'status.storedVersions'),
    ...validateAPIApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

const isEstablished = (crd: JsonObject): boolean =>
  arr(rec(crd.status).conditions).some((c) => rec(c).type === 'Established' && rec(c).status === 'True');

/** Field errors of an update of `old` to `crdIn` (`ValidateCustomResourceDefinitionUpdate`); empty when valid. */
export function validateCustomResourceDefinitionUpdate(crdIn: unknown, oldIn: unknown): FieldError[] {
  const crd = rec(crdIn);
  const old = rec(oldIn);
  const spec = toInternalSpec(defaultedSpec(crd.spec));
  const oldSpec = toInternalSpec(defaultedSpec(old.spec));
  const reviewVersions = arr(rec(rec(oldSpec.conversion).webhook).conversionReviewVersions).map(str);
  const tooMany = new Set<string>();
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
  if ((oldSpec.selectableFields ?? []).length > 8 && same(spec.selectableFields, oldSpec.selectableFields))
    tooMany.add('');
  for (const v of spec.versions) {
    const o = oldSpec.versions.find((x) => x.name === v.name);
    if (o && (o.selectableFields ?? []).length > 8 && same(v.selectableFields, o.selectableFields))
      tooMany.add(v.name);
  }
  const opts: Options = {
    requireRecognizedConversionReviewVersion:
      reviewVersions.length === 0 || reviewVersions.some((v) => v === 'v1' || v === 'v1beta1'),
    requireImmutableNames: isEstablished(old),
    // "don't tighten validation on existing persisted data"
    requireOpenAPISchema:
      isObject(oldSpec.validation?.openAPIV3Schema) ||
      oldSpec.versions.every((v) => isObject(v.schema?.openAPIV3Schema)),
    allowTooManySelectableFields: tooMany,
    versionsWithUnchangedSchemas: versionsWithUnchangedSchemas(spec, oldSpec),
  };
  const errs = validateSpec(spec, opts, 'spec');
  if (opts.requireImmutableNames) {
    if (spec.scope !== oldSpec.scope) errs.push(invalid('spec.scope', spec.scope, 'field is immutable'));
    const kind = str(spec.names.kind);
    if (kind !== str(oldSpec.names.kind)) errs.push(invalid('spec.names.kind', kind, 'field is immutable'));
  }
  if (spec.group !== oldSpec.group) errs.push(invalid('spec.group', spec.group, 'field is immutable'));
  const plural = str(spec.names.plural);
  if (plural !== str(oldSpec.names.plural))
    errs.push(invalid('spec.names.plural', plural, 'field is immutable'));
  // PrepareForUpdate keeps the stored status, whose accepted names are validated again.
  const status = rec(old.status);
  errs.push(...validateNames(status.acceptedNames, 'status.acceptedNames'));
  const stored = storedVersionsAfter(arr(status.storedVersions).map(str), spec);
  errs.push(...validateStoredVersions(stored, spec.versions, 'status.storedVersions'));
  errs.push(...validateAPIApproval(crd, old), ...validatePreserveUnknownFields(crd, old));
  return errs;
}
