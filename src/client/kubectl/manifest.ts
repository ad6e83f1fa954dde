/**
 * Reading manifests the way kubectl does: multi-document YAML or JSON, `List`
 * objects expanded, and the compact JSON kubectl stores in the
 * last-applied-configuration annotation. The `yaml` package is loaded on
 * first use only, so library users who never parse YAML never pay for it.
 */
import type { KubeObject } from '../../protocol/events.js';

/** A manifest that cannot be applied as written (bad YAML, a document without kind or name). */
export class ManifestError extends Error {
  /** Where the manifest came from (a file name, or `STDIN`). */
  readonly source: string;

  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'ManifestError';
    this.source = source;
  }
}

type YamlModule = typeof import('yaml');
let yamlModule: Promise<YamlModule> | undefined;

// YAML 1.1 as kubectl's parser (go-yaml v2) reads it: `0644` is octal (file modes!) and
// yes/no/on/off are booleans. Sexagesimal numbers and timestamps stay strings, since
// kubectl hands them to the API server as strings too.
const YAML_OPTIONS = {
  version: '1.1',
  customTags: (tags: unknown[]) =>
    tags.filter((t) => {
      const tag = t as { tag?: string; format?: string };
      return tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME';
    }),
} as const;

/**
 * Parses every document of a YAML or JSON manifest into objects, in order.
 * Empty documents are skipped and `kind: List` (or `*List`) objects are
 * expanded into their items, as `kubectl apply -f`. Throws
 * {@link ManifestError} naming the document and what is wrong.
 */
export async function parseManifests(text: string, source: string): Promise<KubeObject[]> {
  yamlModule ??= import('yaml');
  const YAML = await yamlModule;
  const docs = YAML.parseAllDocuments(text, YAML_OPTIONS as never);
  if (!Array.isArray(docs)) return [];
  const objects: KubeObject[] = [];
  docs.forEach((doc, i) => {
    const where = docs.length > 1 ? `document ${i + 1}: ` : '';
    const error = doc.errors[0];
    if (error) {
      throw new ManifestError(source, `${where}invalid YAML: ${describeYamlError(text, error)}`);
    }
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (value === null || value === undefined) return;
    for (const object of expandLists(value, source, where)) objects.push(checkObject(object, source, where));
  });
  return objects;
}

function expandLists(value: unknown, source: string, where: string): unknown[] {
  if (!isPlainObject(value)) return [value];
  const kind = value.kind;
  if (typeof kind === 'string' && kind.endsWith('List') && Array.isArray(value.items)) {
    return value.items.flatMap((item) => expandLists(item, source, where));
  }
  return [value];
}

function checkObject(value: unknown, source: string, where: string): KubeObject {
  if (!isPlainObject(value)) {
    throw new ManifestError(source, `${where}expected an object, got ${describe(value)}`);
  }
  const missing: string[] = [];
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') missing.push('apiVersion');
  if (typeof value.kind !== 'string' || value.kind === '') missing.push('kind');
  const metadata = value.metadata;
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    // kubectl apply needs a name: it GETs the object before deciding to create or patch.
    missing.push('metadata.name');
  }
  if (missing.length > 0) {
    const kind = typeof value.kind === 'string' ? `${value.kind} ` : '';
    throw new ManifestError(source, `${where}${kind}object has no ${missing.join(', ')}`);
  }
  return value as KubeObject;
}

/**
 * JSON exactly as Go's encoding/json writes a decoded object: map keys
 * sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. kubectl stores the
 * last-applied configuration in this form, so matching it byte for byte
 * keeps `apply` from seeing a change where there is none.
 */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // Go's json sorts by bytes; JS sorts by UTF-16 units. They differ only for astral-plane keys.
    if (value[key] !== undefined) out[key] = sortKeys(value[key]);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return String(value);
}

/**
 * One line that says what is wrong and where, with the offending line's text.
 * The `yaml` package's message is several lines (reason, "at line N, column M:",
 * then an excerpt with a caret); a one-line CLI error cut at the first newline
 * would end on `column 1:` and hide the line the user has to fix.
 */
function describeYamlError(
  text: string,
  error: { message: string; linePos?: [{ line: number }, ...unknown[]] },
) {
  const reason = error.message
    .split('\n')[0]
    .replace(/ at line \d+, column \d+:?\s*$/, '')
    .trim();
  const at = error.linePos?.[0]?.line;
  if (at === undefined) return reason;
  const lines = text.split(/\r?\n/);
  // A missing closing quote or bracket is reported where the text ends, often a blank
  // line: the line to show is the last one with something on it, where it was opened.
  let line = Math.min(at, lines.length);
  while (line > 1 && lines[line - 1].trim() === '') line--;
  const content = lines[line - 1] ?? '';
  const shown = content.length > 80 ? `${content.slice(0, 77)}...` : content;
  return `line ${line}: ${reason}: ${JSON.stringify(shown)}`;
}
