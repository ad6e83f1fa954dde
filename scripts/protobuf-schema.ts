/**
 * Generates src/server/protobuf/k8s-schema.generated.ts from the upstream `generated.proto` files
 * kept in scripts/protobuf/proto/ and the Go struct tags of the upstream `types.go` files.
 *
 * The .proto files give protobufjs the wire format (field numbers and types); the Go struct tags
 * give what encoding/json does with each decoded field: its JSON name, `omitempty`, whether the Go
 * field is a pointer, and `,inline` (an embedded struct whose fields join the parent's).
 *
 *   npx tsx scripts/protobuf-schema.ts [version]     (default v0.37.2, the reference's release)
 *
 * The files are read from the Go modules k8s.io/api, k8s.io/apimachinery and
 * k8s.io/apiextensions-apiserver at that version, which `go mod download` fetches into the module
 * cache (see go-modules.ts), and the .proto files are copied into scripts/protobuf/proto/ (inputs of this script only:
 * the server loads the generated file, never a .proto). Run
 * `npx biome check --write src/server/protobuf` afterwards (the output is formatted by biome).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type GoModule, goModule } from './go-modules.js';

const tag = process.argv[2] ?? 'v0.37.2';
const apiModule = goModule('k8s.io/api', tag);
const machineryModule = goModule('k8s.io/apimachinery', tag);
const extensionsModule = goModule('k8s.io/apiextensions-apiserver', tag);
const [apiRepo, machineryRepo, extensionsRepo] = [apiModule.dir, machineryModule.dir, extensionsModule.dir];

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const PROTO_DIR = join(ROOT, 'scripts/protobuf/proto');
const OUT = join(ROOT, 'src/server/protobuf/k8s-schema.generated.ts');

/** A group version: its Go import path (the .proto package), and where its files are. */
interface Source {
  repo: string;
  importPath: string;
  dir: string;
  goFiles: string[];
}

const SOURCES: Source[] = [
  { repo: machineryRepo, importPath: 'k8s.io/apimachinery/pkg/runtime', dir: 'pkg/runtime', goFiles: ['types.go'] },
  { repo: machineryRepo, importPath: 'k8s.io/apimachinery/pkg/runtime/schema', dir: 'pkg/runtime/schema', goFiles: [] },
  { repo: machineryRepo, importPath: 'k8s.io/apimachinery/pkg/util/intstr', dir: 'pkg/util/intstr', goFiles: [] },
  { repo: machineryRepo, importPath: 'k8s.io/apimachinery/pkg/api/resource', dir: 'pkg/api/resource', goFiles: [] },
  {
    repo: machineryRepo,
    importPath: 'k8s.io/apimachinery/pkg/apis/meta/v1',
    dir: 'pkg/apis/meta/v1',
    // group_version.go: GroupVersionKind, the responseKind of aggregated discovery.
    goFiles: ['types.go', 'group_version.go'],
  },
  { repo: apiRepo, importPath: 'k8s.io/api/core/v1', dir: 'core/v1', goFiles: ['types.go'] },
  { repo: apiRepo, importPath: 'k8s.io/api/apps/v1', dir: 'apps/v1', goFiles: ['types.go'] },
  // The Scale of the /scale subresources (client-go's typed UpdateScale sends it as protobuf).
  { repo: apiRepo, importPath: 'k8s.io/api/autoscaling/v1', dir: 'autoscaling/v1', goFiles: ['types.go'] },
  { repo: apiRepo, importPath: 'k8s.io/api/coordination/v1', dir: 'coordination/v1', goFiles: ['types.go'] },
  { repo: apiRepo, importPath: 'k8s.io/api/admissionregistration/v1', dir: 'admissionregistration/v1', goFiles: ['types.go'] },
  // Aggregated discovery, answered in protobuf to a client that asks for it (never a body).
  { repo: apiRepo, importPath: 'k8s.io/api/apidiscovery/v2', dir: 'apidiscovery/v2', goFiles: ['types.go'] },
  {
    repo: extensionsRepo,
    importPath: 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
    dir: 'pkg/apis/apiextensions/v1',
    goFiles: ['types.go', 'types_jsonschema.go'],
  },
];

function show(moduleDir: string, path: string): string {
  return readFileSync(join(moduleDir, path), 'utf8');
}

/** The .proto text without comments and blank lines: what protobufjs needs, a fifth of the size. */
function stripComments(proto: string): string {
  return proto
    .split('\n')
    .map((l) => l.replace(/^\s*\/\/.*$/, '').replace(/\s+$/, ''))
    .filter((l) => l !== '')
    .join('\n');
}

/** Flag bits of a Go field, as the generated table stores them. */
const OMITEMPTY = 1;
const POINTER = 2;
const INLINE = 4;

/** One Go struct field that has a protobuf tag: [protobuf name, JSON name, flags]. */
type GoField = [string, string, number];

/** Reads every `type X struct { ... }` of a Go file: its fields with a protobuf tag, in order. */
function goStructs(go: string): Map<string, GoField[]> {
  const structs = new Map<string, GoField[]>();
  const re = /^type (\w+) struct \{\n([\s\S]*?)^\}/gm;
  for (const m of go.matchAll(re)) {
    const fields: GoField[] = [];
    for (const line of (m[2] ?? '').split('\n')) {
      const f = /^\s*(?:(\w+)\s+)?(\S+)\s+`([^`]*)`/.exec(line);
      if (!f || line.trim().startsWith('//')) continue;
      const [, goName, goType = '', tags = ''] = f;
      const pb = /protobuf:"([^"]*)"/.exec(tags)?.[1];
      if (!pb || pb === '-') continue;
      // Without name=, go-to-protobuf names the field after the Go field, first letter lowered.
      const goField = goName ?? goType.replace(/^\*?(\w+\.)?/, '');
      const protoName = /(?:^|,)name=(\w+)/.exec(pb)?.[1] ?? goField.charAt(0).toLowerCase() + goField.slice(1);
      const json = /json:"([^"]*)"/.exec(tags)?.[1] ?? '';
      const [jsonName = '', ...opts] = json.split(',');
      let flags = 0;
      if (opts.includes('omitempty')) flags |= OMITEMPTY;
      if (goType.startsWith('*')) flags |= POINTER;
      // An embedded struct without a JSON name has its fields promoted by encoding/json: tagged
      // `json:",inline"` up to 1.36, `json:""` since 1.37 (the same to encoding/json).
      if (opts.includes('inline') || (goName === undefined && jsonName === '')) flags |= INLINE;
      // An untagged Go field is named as Go names it (encoding/json's rule).
      const name = jsonName || (flags & INLINE ? '' : goField);
      fields.push([protoName, name, flags]);
    }
    structs.set(m[1] as string, fields);
  }
  return structs;
}

/** The modules' go.sum hashes: exactly what was read, named the same on every machine. */
function sums(modules: GoModule[]): string {
  return modules.map((m) => `${m.path} ${m.sum}`).join(', ');
}

const protoTexts: string[] = [];
const fields: Record<string, GoField[]> = {};
for (const s of SOURCES) {
  const proto = show(s.repo, `${s.dir}/generated.proto`);
  // One flat folder: the import path, / as _.
  const target = join(PROTO_DIR, `${s.importPath.replace(/\//g, '_')}_generated.proto`);
  mkdirSync(PROTO_DIR, { recursive: true });
  writeFileSync(target, proto);
  protoTexts.push(stripComments(proto));
  const pkg = /^package ([\w.]+);/m.exec(proto)?.[1] ?? '';
  const messages = new Set([...proto.matchAll(/^message (\w+) \{/gm)].map((m) => m[1] as string));
  for (const file of s.goFiles) {
    for (const [name, list] of goStructs(show(s.repo, `${s.dir}/${file}`))) {
      if (messages.has(name)) fields[`${pkg}.${name}`] = list;
    }
  }
}

const header = `/**
 * The Kubernetes protobuf schema of the served kinds, and the Go struct facts their JSON form
 * follows. GENERATED by scripts/protobuf-schema.ts, do not edit: from the generated.proto and
 * types.go files of the Go modules k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver
 * at ${tag} (${sums([apiModule, machineryModule, extensionsModule])}); Apache-2.0 (see scripts/protobuf/proto/README.md).
 */

/** The .proto files (comments stripped), in dependency order. */
export const PROTO_FILES: readonly string[] = ${JSON.stringify(protoTexts, null, 2)};

/** Flag bit: the Go field's json tag has \`omitempty\`. */
export const OMITEMPTY = ${OMITEMPTY};
/** Flag bit: the Go field is a pointer (protobuf sends it only when non-nil). */
export const POINTER = ${POINTER};
/** Flag bit: the Go field is embedded with \`json:",inline"\`: its fields join the parent's. */
export const INLINE = ${INLINE};

/**
 * Per message (full protobuf name), its Go struct's fields that protobuf carries, in Go order:
 * [protobuf field name, JSON name, flags].
 */
export const GO_FIELDS: Readonly<Record<string, readonly (readonly [string, string, number])[]>> = ${JSON.stringify(fields)};
`;
writeFileSync(OUT, header);
console.log(`wrote ${OUT}: ${protoTexts.join('\n').length} chars of proto, ${Object.keys(fields).length} messages`);
