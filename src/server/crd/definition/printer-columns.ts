/**
 * A CRD version's `additionalPrinterColumns` as Table columns, the way
 * k8s.io/apiextensions-apiserver pkg/registry/customresource/tableconvertor/
 * tableconvertor.go builds them (`New`) and fills them (`ConvertToTable`,
 * `cellForJSONValue`):
 *
 * - each jsonPath is parsed as the template `{<jsonPath>}` with
 *   AllowMissingKeys(true) (client-go util/jsonpath, see `./jsonpath.ts`);
 * - a cell reads only the first value of the first result list
 *   (`results[0][0]`); an evaluation error, no value, or a value of the wrong
 *   type for the column prints as a null cell (kubectl shows `<none>`);
 * - a `string` column prints that value with jsonpath's `PrintResults`, so a
 *   number prints as text and a map or list as compact JSON;
 * - `integer` truncates a float toward zero (Go's `int64(f)`), `number` and
 *   `boolean` take the value as it is, and `date` prints a timestamp's age
 *   (`metatable.ConvertToHumanReadableDateType`: `<unknown>` for "" or "null",
 *   `<invalid>` for text that is not RFC 3339).
 *
 * The Name column that `New` puts first is the table builder's job here, and a
 * CRD without columns (kube serves an Age column then) is the caller's.
 */
import { humanDuration } from '../../kinds/age.js';
import type { TableColumn } from '../../kinds/types.js';
import { JsonPath, printResults } from './jsonpath.js';

/** One `additionalPrinterColumns` entry (apiextensions/v1 `CustomResourceColumnDefinition`). */
export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** A cell of a custom resource's Table: null where kube-apiserver sends `null` (kubectl prints `<none>`). */
export type PrinterCell = string | number | boolean | null;

/**
 * A {@link TableColumn} whose cell may be null, as a CRD column's is. `type`
 * is the CRD's own (validation limits it to TableColumn's five).
 */
export interface PrinterColumn extends Omit<TableColumn, 'cell' | 'type'> {
  type: string;
  /** The cell for one object; `now` (ms since the epoch) is the clock for `date` columns. */
  cell(obj: unknown, now: number): PrinterCell;
}

/** What {@link printerColumns} makes of a version's columns: `New`'s columns and error. */
export interface PrinterColumns {
  /** The columns before the first unparsable jsonPath (all of them when `error` is undefined). */
  columns: PrinterColumn[];
  /** `unrecognized column definition "<jsonPath>"` when a jsonPath does not parse. */
  error?: string;
}

/** tableconvertor.go `New`: the Table columns of a CRD version's `additionalPrinterColumns`. */
export function printerColumns(defs: readonly CustomResourceColumnDefinition[]): PrinterColumns {
  const columns: PrinterColumn[] = [];
  for (const def of defs) {
    let path: JsonPath;
    try {
      path = new JsonPath(`{${def.jsonPath}}`, { allowMissingKeys: true });
    } catch {
      // New returns the convertor built so far beside the error; the parser's own words are dropped, as upstream.
      return { columns, error: `unrecognized column definition ${JSON.stringify(def.jsonPath)}` };
    }
    const column: PrinterColumn = {
      name: def.name,
      type: def.type,
      description:
        def.description || `Custom resource definition column (in JSONPath format): ${def.jsonPath}`,
      priority: def.priority ?? 0,
      cell: (obj, now) => columnCell(path, def.type, obj, now),
    };
    if (def.format !== undefined) column.format = def.format;
    columns.push(column);
  }
  return { columns };
}

/** One cell of `ConvertToTable`'s row function. */
function columnCell(path: JsonPath, type: string, obj: unknown, now: number): PrinterCell {
  let results: unknown[][];
  try {
    results = path.findResults(obj);
  } catch {
    return null; // `err != nil` prints a null cell, by design.
  }
  const first = results[0];
  if (first === undefined || first.length === 0) return null;
  // "as we only support simple JSON path, we can assume to have only one result": the rest are ignored.
  const value = first[0];
  if (type === 'string') {
    // reflect.ValueOf(nil) is Go's invalid Value, which PrintResults prints as `<no value>`.
    return printResults([value === null ? undefined : value]);
  }
  return cellForJSONValue(type, value, now);
}

/** tableconvertor.go `cellForJSONValue` for the non-string types. */
export function cellForJSONValue(type: string, value: unknown, now: number): PrinterCell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      // int64 as is; float64 converted by int64(f), which truncates toward zero.
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      return typeof value === 'string' ? humanReadableDate(value, now) : null;
    default:
      return null;
  }
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z, in ms since the epoch. */
const GO_ZERO_TIME = -62135596800000;

// time.RFC3339 as time.Parse reads it: fractional seconds allowed, a zone required.
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** metav1.Time `UnmarshalQueryParameter`, then metatable `ConvertToHumanReadableDateType`. */
function humanReadableDate(text: string, now: number): string {
  if (text === '' || text === 'null') return '<unknown>'; // the zero Time
  const m = rfc3339.exec(text);
  if (!m) return '<invalid>';
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  const ms = Date.parse(text);
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= 31 &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    !Number.isNaN(ms);
  if (!valid) return '<invalid>';
  if (ms === GO_ZERO_TIME) return '<unknown>'; // Time.IsZero
  return humanDuration(now - ms);
}
