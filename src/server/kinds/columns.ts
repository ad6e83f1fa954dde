/**
 * What every kind's server-side Table columns are built from: the column
 * constructors, the Name and Age columns, the label and selector cells, and
 * the column descriptions printers.go takes from the API's own docs. Each
 * kind defines its columns next to its other rules, as
 * pkg/printers/internalversion/printers.go defines them. kube-apiserver
 * always renders the wide cells too (kubectl hides priority-1 columns unless
 * `-o wide`), so every column has a cell function. The Name column is added
 * by the table builder, except for Events, which place it last (see
 * `columnsIncludeName`).
 */

import {
  formatLabelSelector,
  isEverything,
  type LabelSelectorObject,
  labelSelectorFromObject,
  SelectorError,
} from '../../protocol/labels.js';
import { stringMap } from './access.js';
import { translateTimestampSince } from './age.js';
import type { TableColumn, TypeField } from './types.js';

/** `labels.FormatLabels`: `a=b,c=d` sorted by key, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const map = stringMap(labels);
  const keys = Object.keys(map).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${map[k]}`).join(',');
}

/**
 * `metav1.LabelSelectorAsSelector(sel).String()`: the selector's text, ""
 * for an empty or absent one; undefined when it does not parse.
 */
export function labelSelectorText(selector: unknown): string | undefined {
  try {
    const parsed = labelSelectorFromObject(selector as LabelSelectorObject | undefined);
    return isEverything(parsed) ? '' : formatLabelSelector(parsed);
  } catch (err) {
    if (err instanceof SelectorError) return undefined;
    throw err;
  }
}

/** `metav1.FormatLabelSelector`: like {@link labelSelectorText} but `<none>` when empty and `<error>` when malformed. */
export function formatSelectorCell(selector: unknown): string {
  const text = labelSelectorText(selector);
  if (text === undefined) return '<error>';
  return text === '' ? '<none>' : text;
}

/** A column's optional parts: priority (1: wide only), format, description or field doc. */
export type ColumnExtra = Partial<Pick<TableColumn, 'priority' | 'format' | 'description' | 'fieldDoc'>>;

/** A column named `name` of `type`, computed by `cell`. */
export function col(
  name: string,
  type: TableColumn['type'],
  cell: TableColumn['cell'],
  extra: ColumnExtra = {},
): TableColumn {
  return { name, type, priority: extra.priority ?? 0, cell, ...extra };
}

/** A string column shown only with `-o wide`. */
export function wide(name: string, cell: TableColumn['cell'], extra: ColumnExtra = {}): TableColumn {
  return col(name, 'string', cell, { priority: 1, ...extra });
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/**
 * printers.go's `T{}.SwaggerDoc()["field"]` column description: the doc of field `field` of the
 * type `type` (OpenAPI name), in the served release's words.
 */
export function swaggerDoc(type: string, field: string): { fieldDoc: TypeField } {
  return { fieldDoc: { type, field } };
}

/**
 * {@link swaggerDoc} of the types of one API package: `typeDocs('io.k8s.api.core.v1')` is
 * printers.go's `apiv1.T{}.SwaggerDoc()`.
 */
export function typeDocs(pkg: string): (type: string, field: string) => { fieldDoc: TypeField } {
  return (type, field) => swaggerDoc(`${pkg}.${type}`, field);
}

/** The Name column every printer starts with (or, for Events, ends with) describes ObjectMeta's name. */
export const nameColumnDoc: TypeField = swaggerDoc(`${META}.ObjectMeta`, 'name').fieldDoc;

/** The Age column, ObjectMeta's creationTimestamp as printers.go describes it. */
export const ageColumn: TableColumn = col(
  'Age',
  'string',
  (o, now) => translateTimestampSince(o.metadata?.creationTimestamp, now),
  swaggerDoc(`${META}.ObjectMeta`, 'creationTimestamp'),
);

/** printers.go's `<none>` for an empty cell. */
export function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}
