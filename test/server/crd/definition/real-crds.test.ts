/**
 * Real CRDs of widely used projects (support/fixtures/crds/, Apache-2.0, sources in its README) through
 * watchmark's CRD rules: each installs (`validateCustomResourceDefinition` finds nothing, as
 * kube-apiserver, where all of them install, finds nothing), each served version compiles, each
 * example object from the project's docs or samples is kept whole and valid, and broken objects
 * are refused with kube-apiserver's paths and words. The words are kube-openapi's
 * (pkg/validation/errors/schema.go, e.g. `tooShortMessage` "%s in %s should be at least %d chars
 * long"; pkg/validation/validate/schema_messages.go for oneOf/anyOf) turned into field errors by
 * apiextensions-apiserver pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`
 * with a nil root path (pkg/registry/customresource/strategy.go calls `ValidateCustomResource(nil,
 * ...)`), and apimachinery pkg/util/validation/field/errors.go `ErrorBody`.
 *
 * kube-openapi visits an object's properties in Go map order (object_validator.go `for pName,
 * pSchema := range o.Properties`), so errors of sibling fields come in any order upstream: cases
 * with several errors compare them sorted. CEL rules (`x-kubernetes-validations`) are not run here
 * (no evaluator is passed); CEL_RULE_COUNTS records how many each CRD carries.
 */
import { describe, expect, it } from 'vitest';
import {
  type CustomResourceColumnDefinition,
  printerColumns,
} from '../../../../src/server/crd/definition/printer-columns.js';
import { re2SyntaxError } from '../../../../src/server/crd/definition/schema-structural.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from '../../../../src/server/crd/definition/validation.js';
import { type CrdSchema, compileCrdSchema } from '../../../../src/server/crd/schema/engine.js';
import type { CrdSchemaProps, Structural } from '../../../../src/server/crd/schema/structural.js';
import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import { REFUSALS } from '../../../../support/fixtures/crds/refusals.js';

interface CrdVersion {
  name: string;
  served: boolean;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  schema?: { openAPIV3Schema?: CrdSchemaProps };
}
interface Crd {
  metadata: { name: string };
  spec: { group: string; names: { kind: string; plural: string }; versions: CrdVersion[] };
}

/**
 * The CEL rules each CRD carries, by version, as counted in the manifests (rules in every
 * `x-kubernetes-validations` list). Not evaluated here yet; a CEL evaluator can check it runs
 * them all.
 */
const CEL_RULE_COUNTS: Array<{ file: string; rules: Record<string, number> }> = [
  { file: 'monitoring.coreos.com_prometheusrules.yaml', rules: { v1: 0 } },
  { file: 'cert-manager.io_certificates.yaml', rules: { v1: 0 } },
  { file: 'argoproj.io_applications.yaml', rules: { v1alpha1: 0 } },
  { file: 'templates.gatekeeper.sh_constrainttemplates.yaml', rules: { v1: 0, v1alpha1: 0, v1beta1: 0 } },
  { file: 'apiextensions.crossplane.io_compositeresourcedefinitions.yaml', rules: { v1: 12, v2: 8 } },
  { file: 'apiextensions.crossplane.io_compositions.yaml', rules: { v1: 4 } },
  { file: 'networking.istio.io_virtualservices.yaml', rules: { v1: 6, v1alpha3: 6, v1beta1: 6 } },
  { file: 'kustomize.toolkit.fluxcd.io_kustomizations.yaml', rules: { v1: 2 } },
  { file: 'keda.sh_scaledobjects.yaml', rules: { v1alpha1: 1 } },
  { file: 'gateway.networking.k8s.io_httproutes.yaml', rules: { v1: 89, v1beta1: 89 } },
];

const crds = new Map<string, Crd>();
const crdOf = (file: string): Crd => {
  let crd = crds.get(file);
  if (!crd) {
    crd = loadRealCrd(file) as unknown as Crd;
    crds.set(file, crd);
  }
  return crd;
};
const schemas = new Map<string, CrdSchema>();
/** The compiled schema of a CRD version (compiled once). */
const schemaOf = (file: string, version: string): CrdSchema => {
  const key = `${file}@${version}`;
  let schema = schemas.get(key);
  if (!schema) {
    const v = crdOf(file).spec.versions.find((x) => x.name === version);
    if (!v) throw new Error(`${file} has no version ${version}`);
    schema = compileCrdSchema(v.schema?.openAPIV3Schema);
    schemas.set(key, schema);
  }
  return schema;
};
const versionOf = (obj: Record<string, unknown>): string => String(obj.apiVersion).split('/')[1]!;
const texts = (schema: CrdSchema, obj: unknown): string[] =>
  schema.validate(obj).map((e) => `${e.field}: ${e.message}`);

/** Every node of a compiled schema, depth first. */
function* nodes(s: Structural | undefined): Generator<Structural> {
  if (s === undefined) return;
  yield s;
  for (const p of s.properties?.values() ?? []) yield* nodes(p);
  if (typeof s.additionalProperties === 'object') yield* nodes(s.additionalProperties);
  yield* nodes(s.items);
  for (const sub of [...s.allOf, ...s.anyOf, ...s.oneOf]) yield* nodes(sub);
  yield* nodes(s.not);
}

describe.each(REAL_CRDS)('$kind ($file)', (entry) => {
  const crd = crdOf(entry.file);
  const served = crd.spec.versions.filter((v) => v.served);

  it('installs: validateCustomResourceDefinition finds nothing to refuse', () => {
    expect(crd.metadata.name).toBe(`${entry.plural}.${entry.group}`);
    expect(crd.spec.names).toMatchObject({ kind: entry.kind, plural: entry.plural });
    expect(validateCustomResourceDefinition(crd)).toEqual([]);
    // Re-applying the same manifest (kubectl apply of an installed CRD) is an update that changes nothing.
    expect(validateCustomResourceDefinitionUpdate(structuredClone(crd), crd)).toEqual([]);
  });

  it('compiles every served version: each pattern translated, each CEL rule kept', () => {
    const counts: Record<string, number> = {};
    for (const v of served) {
      const all = [...nodes(schemaOf(entry.file, v.name).structural)];
      const untranslated = all.flatMap((n) => (n.pattern && 'error' in n.pattern ? [n.pattern] : []));
      expect(untranslated).toEqual([]);
      counts[v.name] = all.reduce((sum, n) => sum + n.celRules.length, 0);
    }
    expect(counts).toEqual(CEL_RULE_COUNTS.find((c) => c.file === entry.file)?.rules);
  });

  it('keeps every example whole and valid, before and after defaulting', () => {
    const objects = entry.examples.flatMap(loadExampleObjects);
    expect(objects.length).toBeGreaterThanOrEqual(entry.examples.length);
    for (const obj of objects) {
      expect(obj).toMatchObject({ kind: entry.kind });
      expect(String(obj.apiVersion).split('/')[0]).toBe(entry.group);
      const schema = schemaOf(entry.file, versionOf(obj));
      const copy = structuredClone(obj);
      expect(schema.prune(copy)).toEqual([]);
      expect(copy).toEqual(obj);
      expect(texts(schema, copy)).toEqual([]);
      schema.default(copy);
      expect(schema.prune(copy)).toEqual([]);
      expect(texts(schema, copy)).toEqual([]);
    }
  });
});

/**
 * The Table cells kubectl shows for the examples: tableconvertor.go `ConvertToTable` reads the
 * first value of a column's first jsonpath result (a `[?(@.type=="Ready")]` filter's match, an
 * absent field: a null cell), prints a string column with jsonpath `PrintResults` (a list as
 * compact JSON) and a date column as an age.
 */
describe('printer columns of the real CRDs', () => {
  const NOW = Date.parse('2026-01-01T00:10:00Z');
  const table = (file: string, obj: Record<string, any>): Array<[string, unknown]> => {
    const version = crdOf(file).spec.versions.find((v) => v.name === versionOf(obj))!;
    const { columns, error } = printerColumns(version.additionalPrinterColumns ?? []);
    expect(error).toBeUndefined();
    obj.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    return columns.map((c) => [c.name, c.cell(obj, NOW)]);
  };
  const example = (file: string): Record<string, any> => structuredClone(loadExampleObjects(file)[0]!);

  it('every column of every served version parses', () => {
    for (const entry of REAL_CRDS)
      for (const v of crdOf(entry.file).spec.versions.filter((x) => x.served))
        expect(printerColumns(v.additionalPrinterColumns ?? []), `${entry.kind} ${v.name}`).toMatchObject({
          columns: v.additionalPrinterColumns?.map((c) => ({ name: c.name })) ?? [],
        });
  });

  it('ScaledObject: condition filters, an absent condition and field, integers, the age', () => {
    const obj = example('scaledobjects-example.yaml');
    obj.status = {
      scaleTargetKind: 'apps/v1.Deployment',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Active', status: 'False' },
        { type: 'Fallback', status: 'False' },
      ],
      triggersTypes: 'example-trigger',
    };
    expect(table('keda.sh_scaledobjects.yaml', obj)).toEqual([
      ['ScaleTargetKind', 'apps/v1.Deployment'],
      ['ScaleTargetName', 'example-deployment'],
      ['Min', 0],
      ['Max', 100],
      ['Ready', 'True'],
      ['Active', 'False'],
      ['Fallback', 'False'],
      ['Paused', null],
      ['Triggers', 'example-trigger'],
      ['Authentications', null],
      ['Age', '10m'],
    ]);
  });

  it('Certificate: a filter written with spaces around ==', () => {
    const obj = example('certificates-example.yaml');
    obj.status = {
      conditions: [
        { type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' },
      ],
      notAfter: '2026-04-01T00:00:00Z',
    };
    expect(table('cert-manager.io_certificates.yaml', obj)).toEqual([
      ['Ready', 'True'],
      ['Secret', 'example-com-tls'],
      ['Issuer', 'ca-issuer'],
      ['Status', 'Certificate is up to date and has not expired'],
      ['Expiration', '2026-04-01T00:00:00Z'],
      ['Age', '10m'],
    ]);
  });

  it('HTTPRoute, VirtualService, Application: a list as compact JSON, an absent field as null', () => {
    expect(table('gateway.networking.k8s.io_httproutes.yaml', example('httproutes-example.yaml'))).toEqual([
      ['Hostnames', '["foo.example.com"]'],
      ['Age', '10m'],
    ]);
    expect(
      table('networking.istio.io_virtualservices.yaml', example('virtualservices-example.yaml')),
    ).toEqual([
      ['Gateways', null],
      ['Hosts', '["reviews"]'],
      ['Age', '10m'],
    ]);
    expect(table('argoproj.io_applications.yaml', example('applications-example.yaml'))).toEqual([
      ['Sync Status', null],
      ['Health Status', null],
      ['Revision', null],
      ['Project', 'default'],
    ]);
  });
});

describe('broken objects are refused with kube-apiserver paths and messages', () => {
  it.each(REFUSALS)('$file: $name', ({ file, example, change, errors }) => {
    const obj = structuredClone(loadExampleObjects(example)[0]!);
    change(obj as Record<string, any>);
    const schema = schemaOf(file, versionOf(obj));
    expect(schema.prune(obj)).toEqual([]);
    expect(texts(schema, obj).sort()).toEqual([...errors].sort());
  });
});

describe('defaults the real CRDs declare', () => {
  const defaulted = (file: string, example: string): Record<string, any> => {
    const obj = structuredClone(loadExampleObjects(example)[0]!) as Record<string, any>;
    schemaOf(file, versionOf(obj)).default(obj);
    return obj;
  };

  it('HTTPRoute: parentRefs and backendRefs get their group and kind, a rule without matches matches PathPrefix /', () => {
    const file = 'gateway.networking.k8s.io_httproutes.yaml';
    expect(defaulted(file, 'httproutes-example.yaml').spec).toEqual({
      parentRefs: [{ name: 'example-gateway', group: 'gateway.networking.k8s.io', kind: 'Gateway' }],
      hostnames: ['foo.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/login' } }],
          backendRefs: [{ name: 'foo-svc', port: 8080, group: '', kind: 'Service', weight: 1 }],
        },
      ],
    });
    expect(defaulted(file, 'httproutes-example-rewrite.yaml').spec.rules).toEqual([
      {
        filters: [{ type: 'URLRewrite', urlRewrite: { hostname: 'elsewhere.example' } }],
        backendRefs: [{ name: 'example-svc', weight: 1, port: 80, group: '', kind: 'Service' }],
        matches: [{ path: { type: 'PathPrefix', value: '/' } }],
      },
    ]);
  });

  it('HTTPRoute: a route without rules gets the one default rule', () => {
    const obj = structuredClone(loadExampleObjects('httproutes-example.yaml')[0]!) as Record<string, any>;
    delete obj.spec.rules;
    schemaOf('gateway.networking.k8s.io_httproutes.yaml', 'v1').default(obj);
    expect(obj.spec.rules).toEqual([{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }]);
  });

  it("Kustomization: spec.force, and the root's status default", () => {
    const obj = defaulted('kustomize.toolkit.fluxcd.io_kustomizations.yaml', 'kustomizations-example.yaml');
    expect(obj.spec.force).toBe(false);
    expect(obj.status).toEqual({ observedGeneration: -1 });
  });

  it('ConstraintTemplate and CompositeResourceDefinition: defaults inside spec', () => {
    const template = defaulted(
      'templates.gatekeeper.sh_constrainttemplates.yaml',
      'constrainttemplates-example.yaml',
    );
    expect(template.spec.crd.spec.validation.legacySchema).toBe(false);
    const xrd = defaulted(
      'apiextensions.crossplane.io_compositeresourcedefinitions.yaml',
      'compositeresourcedefinitions-example.yaml',
    );
    expect(xrd.spec).toMatchObject({ scope: 'Cluster', defaultCompositionUpdatePolicy: 'Automatic' });
  });
});

describe('an example the docs get wrong', () => {
  it("cert-manager's name-constraints example: emailAddress (the field is emailAddresses) is pruned", () => {
    const obj = loadExampleObjects('certificates-example-name-constraints.yaml')[0]!;
    const schema = schemaOf('cert-manager.io_certificates.yaml', 'v1');
    expect(schema.prune(obj)).toEqual(['spec.nameConstraints.permitted.emailAddress']);
    expect(texts(schema, obj)).toEqual([]);
  });
});

describe('real CRDs broken as kube-apiserver refuses them', () => {
  const errorsOf = (file: string, change: (crd: Record<string, any>) => void): string[] => {
    const crd = structuredClone(crdOf(file)) as unknown as Record<string, any>;
    change(crd);
    return validateCustomResourceDefinition(crd).map((e) => `${e.field}: ${e.message}`);
  };

  it('Certificate (one version, so its parts sit at spec level): a selectable field naming no field, one repeated', () => {
    // validation.go `ValidateCustomResourceSelectableFields` with cel.ValidFieldPath's error.
    const errs = errorsOf('cert-manager.io_certificates.yaml', (crd) => {
      crd.spec.versions[0].selectableFields.push(
        { jsonPath: '.spec.issuerRef.nope' },
        { jsonPath: '.spec.issuerRef.kind' },
      );
    });
    expect(errs).toEqual([
      'spec.selectableFields[3].jsonPath: Invalid value: ".spec.issuerRef.nope": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[4].jsonPath: Duplicate value: ".spec.issuerRef.kind"',
    ]);
  });

  it('HTTPRoute: a printer column type only v1 has (the versions now differ, so the path names the version)', () => {
    const errs = errorsOf('gateway.networking.k8s.io_httproutes.yaml', (crd) => {
      crd.spec.versions[0].additionalPrinterColumns[0].type = 'text';
    });
    expect(errs).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    ]);
  });

  it.each([
    ['^(?=[0-9])[0-9]+s$', 'invalid or unsupported Perl syntax: `(?=`'],
    ['^([0-9]+)(ms|s)\\1?$', 'invalid escape sequence: `\\1`'],
    ['^[0-9]{1,1001}s$', 'invalid repeat count: `{1,1001}`'],
  ])(
    'Kustomization: an interval pattern %s, which JavaScript compiles and RE2 refuses',
    (pattern, goError) => {
      // pkg/apiserver/schema/validation.go `validateValueValidation`: `regexp.Compile(v.Pattern)`.
      const errs = errorsOf('kustomize.toolkit.fluxcd.io_kustomizations.yaml', (crd) => {
        crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.interval.pattern = pattern;
      });
      expect(errs).toEqual([
        `spec.validation.openAPIV3Schema.properties[spec].properties[interval].pattern: Invalid value: ${JSON.stringify(pattern)}: must be a valid regular expression, but isn't: error parsing regexp: ${goError}`,
      ]);
    },
  );
});

/**
 * re2SyntaxError against Go's regexp/syntax parse.go (`parse`, `parsePerlFlags`, `parseEscape`,
 * `parseClass`, `parseNamedClass`, `repeat`): the error code's text and the expression it quotes.
 */
describe('re2SyntaxError: what Go refuses that JavaScript compiles', () => {
  it.each([
    ['^(?=a)b$', 'invalid or unsupported Perl syntax', '(?='],
    ['(?!x)', 'invalid or unsupported Perl syntax', '(?!'],
    ['(?P=name)', 'invalid or unsupported Perl syntax', '(?P'],
    ['(?i-)', 'invalid or unsupported Perl syntax', '(?i-)'],
    // A lookbehind reads as a named group whose name is not [A-Za-z0-9_]+; without `>` the rest is quoted.
    ['(?<=a)b', 'invalid named capture', '(?<=a)b'],
    ['(?<=a)b>', 'invalid named capture', '(?<=a)b>'],
    ['(a)\\1', 'invalid escape sequence', '\\1'],
    ['\\k<n>', 'invalid escape sequence', '\\k'],
    ['\\u0041', 'invalid escape sequence', '\\u'],
    ['\\C', 'invalid escape sequence', '\\C'],
    ['[\\b]', 'invalid escape sequence', '\\b'],
    ['\\x4', 'invalid escape sequence', '\\x4'],
    ['\\x{}', 'invalid escape sequence', '\\x{}'],
    ['a\\', 'trailing backslash at end of expression', ''],
    ['[^]', 'missing closing ]', '[^]'],
    ['[]', 'missing closing ]', '[]'],
    ['[[:foo:]]', 'invalid character class range', '[:foo:]'],
    ['[z-a]', 'invalid character class range', 'z-a'],
    ['\\p{L', 'invalid character class range', '\\p{L'],
    ['a{1001}', 'invalid repeat count', '{1001}'],
    ['a{2,1}', 'invalid repeat count', '{2,1}'],
    ['a*??', 'invalid nested repetition operator', '*??'],
    ['a{2}{3}', 'invalid nested repetition operator', '{2}{3}'],
    ['(*)', 'missing argument to repetition operator', '*'],
    ['(a', 'missing closing )', '(a'],
    ['a)', 'unexpected )', 'a)'],
  ])('%s', (pattern, code, expr) => {
    expect(re2SyntaxError(pattern)).toEqual({ error: `error parsing regexp: ${code}: \`${expr}\`` });
  });

  it('takes what RE2 takes: inline flags, named groups, octal and hex escapes, POSIX and Perl classes, literal braces', () => {
    const fine = [
      '^(?i)(abort|warn)?$',
      '(?i-s:a)(?U)b+',
      '(?P<name>a)(?<other>b)',
      '\\0\\12\\x41\\x{1F600}',
      '[]a][[:^alpha:]x][\\d-z][a-z-]',
      '\\pL\\p{Greek}\\Qa.b\\E+',
      'x{,3}x{3a{1000}^*\\_\\/',
    ];
    expect(fine.map((p) => [p, re2SyntaxError(p)])).toEqual(fine.map((p) => [p, {}]));
  });

  it('takes every pattern of the real CRDs', () => {
    const patterns = new Set<string>();
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (typeof x === 'object' && x !== null)
        for (const [k, v] of Object.entries(x)) {
          if (k === 'pattern' && typeof v === 'string') patterns.add(v);
          else walk(v);
        }
    };
    for (const entry of REAL_CRDS) walk(crdOf(entry.file));
    expect(patterns.size).toBeGreaterThan(15);
    expect([...patterns].filter((p) => re2SyntaxError(p).error !== undefined)).toEqual([]);
  });
});
