/**
 * Server-side printing: the meta.k8s.io `Table` that `kubectl get` asks for with
 * `Accept: application/json;as=Table;v=v1;g=meta.k8s.io,...`. Every column kubectl shows beyond
 * NAME and AGE (READY, STATUS, ...) comes from here; without a Table kubectl falls back to a bare
 * `NAME AGE` printer. Rules kubectl relies on (kubectl-needs §6, §7):
 *
 * - `row.object` must carry kind + apiVersion + metadata, or kubectl misreads the whole Table
 *   (and `-A`'s NAMESPACE column, `--show-labels` and `--sort-by` need the metadata);
 * - `metadata.resourceVersion` must be set, because `get -w` starts its watch from it.
 */
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { negotiateOutput } from '../http/media-types.js';
import { internalMetadata } from '../kinds/apps/daemonset-generation.js';
import { nameColumnDoc } from '../kinds/columns.js';
import { apiVersionOf, type ResourceKind, type TableColumn } from '../kinds/types.js';
import { COLUMN_DOCS } from '../openapi/column-docs.generated.js';
import { allowsTransform } from './partial-metadata.js';

/** The Table API versions kubectl accepts, most preferred first. */
export type TableVersion = 'v1' | 'v1beta1';

/** What each row's `object` holds (the `includeObject` query parameter). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** One `columnDefinitions` entry. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** One row: the printed cells and (per `includeObject`) the object they describe. */
export interface TableRow {
  cells: Array<string | number | boolean | null>;
  /** Null with `includeObject=None`: meta/v1 TableRow's RawExtension writes `null` when empty. */
  object: KubeObject | null;
}

/** A meta.k8s.io Table. */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/** Options of {@link toTable}. */
export interface TableOptions {
  /** Server clock in ms since the epoch, for age columns. */
  now: number;
  /** The list's metadata; without it, a one-object Table takes that object's resourceVersion. */
  listMeta?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  /** False for watch events after the first (see {@link watchEventTable}). Default true. */
  includeColumnDefinitions?: boolean;
  /** The `includeObject` query parameter. Default `Metadata`, as kube-apiserver. */
  includeObject?: IncludeObject;
  /** The Table version negotiated by {@link wantsTable}. Default `v1`. */
  version?: TableVersion;
}

/**
 * A column's description: printers.go's own text, or the served release's doc of the field it
 * names (`T{}.SwaggerDoc()["field"]`), which the generated COLUMN_DOCS holds for every built-in
 * column (test/server/handlers/table.test.ts checks that none is missing).
 */
export function columnDescription(c: Pick<TableColumn, 'description' | 'fieldDoc'>): string {
  if (c.fieldDoc) return COLUMN_DOCS[c.fieldDoc.type]?.[c.fieldDoc.field] ?? '';
  return c.description ?? '';
}

/** Every printer's Name column, described by ObjectMeta's doc of `name`. */
const NAME_COLUMN: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: columnDescription({ fieldDoc: nameColumnDoc }),
  priority: 0,
};

/** The column definitions of a kind's Table: Name first, then the kind's own columns. */
export function columnDefinitions(kind: ResourceKind): TableColumnDefinition[] {
  // Some kinds (events) place Name themselves, as their real printers do.
  return [
    ...(kind.columnsIncludeName ? [] : [{ ...NAME_COLUMN }]),
    ...kind.columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: columnDescription(c),
      priority: c.priority,
    })),
  ];
}

/**
 * Prints objects of one kind as a Table. Rows hold, per `includeObject`, a PartialObjectMetadata
 * (default), the whole object (`Object`, with kind/apiVersion filled in) or nothing (`None`).
 */
export function toTable(kind: ResourceKind, objects: KubeObject[], opts: TableOptions): Table {
  const version = opts.version ?? 'v1';
  const include = opts.includeObject ?? 'Metadata';
  const single = objects.length === 1 ? objects[0]?.metadata?.resourceVersion : undefined;
  const source = opts.listMeta ?? (single ? { resourceVersion: single } : {});
  const metadata: Table['metadata'] = {};
  if (source.resourceVersion) metadata.resourceVersion = source.resourceVersion;
  if (source.continue) metadata.continue = source.continue;
  if (source.remainingItemCount !== undefined) metadata.remainingItemCount = source.remainingItemCount;

  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata,
    columnDefinitions: opts.includeColumnDefinitions === false ? [] : columnDefinitions(kind),
    rows: objects.map((obj) => {
      const printed = kind.printed?.(obj) ?? obj;
      const row: TableRow = {
        cells: [
          ...(kind.columnsIncludeName ? [] : [obj.metadata?.name ?? '']),
          ...kind.columns.map((c) => c.cell(printed, opts.now)),
          ...(kind.trailingCells?.(printed, opts.now) ?? []),
        ],
        object: null,
      };
      if (include === 'Metadata') {
        row.object = {
          kind: 'PartialObjectMetadata',
          apiVersion: `meta.k8s.io/${version}`,
          metadata: internalMetadata(printed),
        };
      } else if (include === 'Object') {
        row.object = {
          ...obj,
          kind: obj.kind ?? kind.kind,
          apiVersion: obj.apiVersion ?? apiVersionOf(kind),
        };
      }
      return row;
    }),
  };
}

/**
 * The `object` of one watch event when the watch asked for a Table: a one-row Table. Like
 * kube-apiserver, only the first event of a stream carries `columnDefinitions`; later ones send
 * an empty list (kubectl reuses the header it printed from the list or first event).
 */
export function watchEventTable(
  kind: ResourceKind,
  obj: KubeObject,
  opts: Omit<TableOptions, 'listMeta' | 'includeColumnDefinitions'> & { first: boolean },
): Table {
  const { first, ...rest } = opts;
  return toTable(kind, [obj], { ...rest, includeColumnDefinitions: first });
}

/**
 * Reads an Accept header: the Table version to answer with, or undefined for anything else (a
 * plain object or list, a PartialObjectMetadata, or nothing acceptable: reads answer that 406
 * before they start, partial-metadata.ts `negotiateRead`). The range kube-apiserver's negotiation
 * picks wins (media-types.ts `negotiateOutput`), so `application/json` before any `as=Table`
 * means plain JSON. Table ranges in other encodings (YAML, protobuf) are skipped: we print Tables
 * as JSON only.
 */
export function wantsTable(accept: string | undefined): TableVersion | undefined {
  const convert = negotiateOutput(accept, allowsTransform(false))?.convert;
  return convert?.kind === 'Table' ? (convert.version as TableVersion) : undefined;
}

/**
 * Parses the `includeObject` query parameter: absent or empty means `Metadata`; anything else
 * outside None/Metadata/Object is a 400, as kube-apiserver answers.
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (!value) return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw StatusError.of(
    'BadRequest',
    `includeObject: Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`,
  );
}
