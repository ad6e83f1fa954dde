/**
 * A built-in kind's entry from the reference's discovery (discovery.generated.ts): its names,
 * scope, short names and categories are the reference's, never typed again, and its Table
 * columns are the reference's definitions (names, types, formats, descriptions, priorities) with
 * a cell function for each, as printers.go pairs `TableColumnDefinition`s with a print handler.
 * A kind's folder gives only what the reference's discovery cannot tell: defaults, validation,
 * strategy, the cells.
 */
import type { KubeObject } from '../../protocol/events.js';
import { requireBuiltinResource } from './builtin-table.js';
import type { ResourceKind, TableColumn } from './types.js';

/** The cell of each column by its name (`Holder`, `Age`); the Name column's is the table builder's. */
export type ColumnCells = Readonly<
  Record<string, (obj: KubeObject, now: number) => string | number | boolean | null>
>;

/**
 * The reference's Table columns of `<group>/<version>/<plural>` with `cells`' functions: every
 * column but a leading Name (which the table builder adds). A column without a cell, or a cell
 * for no column, throws when the kind is defined, so a kind's columns cannot drift from the
 * reference's. Where Name is not first (Events print it last, wide) it is among the columns and
 * `includesName` says so: set `columnsIncludeName` and give a `Name` cell.
 */
export function generatedColumns(
  group: string,
  version: string,
  plural: string,
  cells: ColumnCells,
): { columns: TableColumn[]; includesName: boolean } {
  const defs = requireBuiltinResource(group, version, plural).columns ?? [];
  const includesName = defs[0]?.name !== 'Name';
  const wanted = includesName ? defs : defs.slice(1);
  const unused = new Set(Object.keys(cells));
  const columns = wanted.map((d): TableColumn => {
    const cell = cells[d.name];
    if (!cell) throw new Error(`${plural}: no cell for the reference's column ${JSON.stringify(d.name)}`);
    unused.delete(d.name);
    return {
      name: d.name,
      type: d.type as TableColumn['type'],
      ...(d.format ? { format: d.format } : {}),
      description: d.description,
      priority: d.priority,
      cell,
    };
  });
  if (unused.size > 0)
    throw new Error(`${plural}: cells for no column of the reference: ${[...unused].join(', ')}`);
  return { columns, includesName };
}

/** What a kind's folder gives beside the reference's names: everything of ResourceKind but those and the columns. */
export type KindRules = Omit<
  ResourceKind,
  | 'group'
  | 'version'
  | 'kind'
  | 'plural'
  | 'singular'
  | 'namespaced'
  | 'shortNames'
  | 'categories'
  | 'columns'
  | 'columnsIncludeName'
  | 'fields'
  | 'subresources'
  | 'generationFields'
> &
  Partial<Pick<ResourceKind, 'fields' | 'subresources' | 'generationFields'>> & {
    /** The cell of each of the reference's columns (see {@link generatedColumns}). */
    cells?: ColumnCells;
  };

/**
 * The entry of the built-in resource `<group>/<version>/<plural>`: the reference's names and
 * columns with `rules`. Its generic subresources (`status`, `scale`) are the reference's unless
 * `rules.subresources` says otherwise; no field selector beyond the metadata's and no generation
 * unless given.
 */
export function builtinKind(
  group: string,
  version: string,
  plural: string,
  rules: KindRules = {},
): ResourceKind {
  const r = requireBuiltinResource(group, version, plural);
  const { cells, ...rest } = rules;
  const { columns, includesName } = r.columns
    ? generatedColumns(group, version, plural, cells ?? {})
    : { columns: [], includesName: false };
  return {
    group,
    version,
    kind: r.kind,
    plural,
    singular: r.singular,
    namespaced: r.namespaced,
    shortNames: [...r.shortNames],
    categories: [...r.categories],
    fields: {},
    subresources: r.subresources
      .map((s) => s.name)
      .filter((s): s is 'status' | 'scale' => s === 'status' || s === 'scale'),
    generationFields: [],
    columns,
    ...(includesName ? { columnsIncludeName: true } : {}),
    ...rest,
  };
}
