/**
 * Generates src/server/schema/go-fields.generated.ts: the Go facts of the served types' fields
 * that the type table (openapi-types.generated.ts, from Kubernetes' published OpenAPI) does not
 * carry, and that kube-apiserver's decoder errors print (encoding/json `UnmarshalTypeError`):
 * - the Go type of a field where it is not what the table's type implies: Go's named string,
 *   map and slice types (`v1.PullPolicy`, `v1.ResourceList`, `[]v1.IPFamily`, `types.UID`);
 * - the embedded structs a field is promoted through (`Rule` of a RuleWithOperations), which
 *   the error's field path names since Go 1.24.
 *
 *   npx tsx scripts/go-field-types.ts [version]     (default v0.37.2, the reference's release)
 *
 * The `types.go` files are read from the Go modules k8s.io/api, k8s.io/apimachinery,
 * k8s.io/apiextensions-apiserver and k8s.io/kube-aggregator at that version, which `go mod download` fetches from the Go
 * module proxy into the module cache (Go itself comes from the machine). Run
 * `npx biome check --write src/server/schema` afterwards.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { API_TYPES } from '../src/server/openapi/openapi-types.generated.js';
import { goTypeOfField } from '../src/server/schema/builtin-schemas.js';
import { goModule } from './go-modules.js';

const tag = process.argv[2] ?? 'v0.37.2';

/** The module's folder in the Go module cache, downloaded when missing. */
function moduleDir(path: string): string {
  return goModule(path, tag).dir;
}

const apiRepo = moduleDir('k8s.io/api');
const machineryRepo = moduleDir('k8s.io/apimachinery');
const extensionsRepo = moduleDir('k8s.io/apiextensions-apiserver');
const aggregatorRepo = moduleDir('k8s.io/kube-aggregator');

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const OUT = join(ROOT, 'src/server/schema/go-fields.generated.ts');

/** An OpenAPI package prefix, and where its Go files are. */
const PACKAGES: { prefix: string; repo: string; dir: string; files: string[] }[] = [
  { prefix: 'io.k8s.apimachinery.pkg.apis.meta.v1', repo: machineryRepo, dir: 'pkg/apis/meta/v1', files: ['types.go'] },
  // Every k8s.io/api group-version the type table holds: `io.k8s.api.<group>.<version>` is `<group>/<version>`.
  ...[...new Set(Object.keys(API_TYPES).map((name) => /^io\.k8s\.api\.(\w+)\.(\w+)\./.exec(name)))]
    .flatMap((m) => (m ? [`${m[1]}/${m[2]}`] : []))
    .filter((dir, i, all) => all.indexOf(dir) === i)
    .map((dir) => ({ prefix: `io.k8s.api.${dir.replace('/', '.')}`, repo: apiRepo, dir, files: ['types.go'] })),
  {
    prefix: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
    repo: extensionsRepo,
    dir: 'pkg/apis/apiextensions/v1',
    files: ['types.go', 'types_jsonschema.go'],
  },
  {
    prefix: 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1',
    repo: aggregatorRepo,
    dir: 'pkg/apis/apiregistration/v1',
    files: ['types.go'],
  },
];

function show(moduleRoot: string, path: string): string {
  return readFileSync(join(moduleRoot, path), 'utf8');
}

/** One Go struct field: its Go name, its type as written, its JSON name ('' when embedded). */
interface GoField {
  goName: string;
  type: string;
  json: string;
  embedded: boolean;
}

/** Go's predeclared types that reflect prints under another name. */
const BUILTIN: Record<string, string> = { byte: 'uint8', rune: 'int32' };
const PREDECLARED = new Set(['string', 'bool', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8',
  'uint16', 'uint32', 'uint64', 'float32', 'float64', 'byte', 'rune']);

/** A package's Go files: its structs, and the import aliases → package names they use. */
function readPackage(repo: string, dir: string, files: string[]) {
  const structs = new Map<string, GoField[]>();
  const aliases = new Map<string, string>();
  for (const file of files) {
    const go = show(repo, `${dir}/${file}`);
    for (const m of go.matchAll(/^\s*(?:(\w+)\s+)?"([\w./-]+)"\s*$/gm)) {
      const path = m[2] as string;
      const name = path.split('/').at(-1) as string;
      aliases.set(m[1] ?? name, name);
    }
    for (const m of go.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields: GoField[] = [];
      for (const line of (m[2] ?? '').split('\n')) {
        if (line.trim().startsWith('//')) continue;
        const f = /^\s*(?:(\w+)\s+)?([^\s`]+)\s+`([^`]*)`/.exec(line);
        if (!f) continue;
        const [, goName, type = '', tags = ''] = f;
        const json = /json:"([^"]*)"/.exec(tags)?.[1];
        if (json === '-' || json?.startsWith('-,')) continue;
        const jsonName = (json ?? '').split(',')[0] ?? '';
        const embedded = goName === undefined && jsonName === '';
        const name = goName ?? type.replace(/^\*?(\w+\.)?/, '');
        fields.push({ goName: name, type, json: jsonName || (embedded ? '' : name), embedded });
      }
      structs.set(m[1] as string, fields);
    }
  }
  return { structs, aliases };
}

/** reflect.Type.String() of a type as written in package `pkg`. */
function goTypeString(written: string, pkg: string, aliases: Map<string, string>): string {
  if (written.startsWith('*')) return `*${goTypeString(written.slice(1), pkg, aliases)}`;
  if (written.startsWith('[]')) return `[]${goTypeString(written.slice(2), pkg, aliases)}`;
  const map = /^map\[([^\]]+)\](.+)$/.exec(written);
  if (map) return `map[${goTypeString(map[1] as string, pkg, aliases)}]${goTypeString(map[2] as string, pkg, aliases)}`;
  const qualified = /^(\w+)\.(\w+)$/.exec(written);
  if (qualified) return `${aliases.get(qualified[1] as string) ?? qualified[1]}.${qualified[2]}`;
  if (PREDECLARED.has(written)) return BUILTIN[written] ?? written;
  return `${pkg}.${written}`;
}

const goTypes: Record<string, Record<string, string>> = {};
const embeddedIn: Record<string, Record<string, string>> = {};

for (const p of PACKAGES) {
  const { structs, aliases } = readPackage(p.repo, p.dir, p.files);
  const pkg = p.prefix.split('.').at(-1) as string;
  /** The JSON fields of a struct, embedded structs' fields promoted (with the Go names they pass). */
  const flatten = (name: string, through: string[]): Map<string, { field: GoField; through: string[] }> => {
    const out = new Map<string, { field: GoField; through: string[] }>();
    for (const field of structs.get(name) ?? []) {
      if (!field.embedded) {
        out.set(field.json, { field, through });
        continue;
      }
      const inner = field.type.replace(/^\*/, '');
      // An embedded struct of another package (metav1.TypeMeta) is looked up by its bare name:
      // only TypeMeta and ObjectMeta are, and their fields carry no named types of interest.
      const local = inner.includes('.') ? undefined : inner;
      if (local) for (const [k, v] of flatten(local, [...through, field.goName])) out.set(k, v);
      else if (inner.endsWith('TypeMeta')) {
        for (const json of ['apiVersion', 'kind']) {
          out.set(json, { field: { goName: json, type: 'string', json, embedded: false }, through: [field.goName] });
        }
      }
    }
    return out;
  };
  for (const [openapi, t] of Object.entries(API_TYPES)) {
    if (!openapi.startsWith(`${p.prefix}.`) || !('fields' in t)) continue;
    const name = openapi.slice(p.prefix.length + 1);
    if (!structs.has(name)) continue;
    const fields = flatten(name, []);
    for (const [json, tableType] of Object.entries(t.fields)) {
      const found = fields.get(json);
      if (!found) continue;
      // The decoder fills what a pointer points at: the error names the pointed-to type.
      const go = goTypeString(found.field.type, pkg, aliases).replace(/^\*/, '');
      if (go !== goTypeOfField(tableType)) (goTypes[openapi] ??= {})[json] = go;
      if (found.through.length > 0) (embeddedIn[openapi] ??= {})[json] = found.through.join('.');
    }
  }
}

const header = `/**
 * The Go facts of the built-in types' fields that the type table does not carry, for the
 * decoder's error messages (see builtin-schemas.ts). GENERATED by scripts/go-field-types.ts, do
 * not edit: from the types.go files of the Go modules k8s.io/api, k8s.io/apimachinery,
 * k8s.io/apiextensions-apiserver and k8s.io/kube-aggregator at ${tag}.
 */

/**
 * Per type (OpenAPI name), the fields whose Go type is not the one the table's type implies, with
 * reflect's name of it (pointers dereferenced, as the decoder does): \`v1.PullPolicy\`.
 */
export const GO_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(goTypes)};

/**
 * Per type (OpenAPI name), the fields promoted from embedded structs, with the Go field names of
 * the structs they are reached through, outermost first, joined by \`.\`: \`Rule\`.
 */
export const GO_EMBEDDED_IN: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(embeddedIn)};
`;
writeFileSync(OUT, header);
console.log(
  `wrote ${OUT}: ${Object.values(goTypes).reduce((n, r) => n + Object.keys(r).length, 0)} field types, ` +
    `${Object.values(embeddedIn).reduce((n, r) => n + Object.keys(r).length, 0)} promoted fields`,
);
