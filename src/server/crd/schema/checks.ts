/**
 * The leaf checks of kube-openapi's validators, one value at a time (k8s.io/kube-openapi
 * pkg/validation/validate: type.go `typeValidator`, validator.go `stringValidator`,
 * `numberValidator`, `basicCommonValidator`, formats.go `formatValidator`), each returning
 * kube-openapi's error with its message (pkg/validation/errors/schema.go) for
 * validate.ts to turn into field errors.
 */
import { goFloat, goQuote, goValue } from '../../schema/go-text.js';
import { formatChecker } from './formats.js';
import { isJsonObject, type Structural } from './structural.js';

/** kube-openapi errors/schema.go failure codes the conversion tells apart. */
export type Code =
  | 'type'
  | 'required'
  | 'tooLong'
  | 'enum'
  | 'maxItems'
  | 'tooManyProperties'
  | 'other'
  /**
   * Not an `*errors.Validation` (the anyOf/oneOf/allOf/not messages, a format range): reported
   * at the root path with an empty value.
   */
  | 'composite';

/** One kube-openapi error: `Name` (its path), `Value`, `Valid` and `Values`, and its message. */
export interface OpenAPIError {
  code: Code;
  name: string;
  message: string;
  value?: unknown;
  /** The limit (`Valid`): maxLength's or maxItems' bound. */
  valid?: number;
  values?: unknown[];
}

/** Where kube-openapi says a custom object's values are (`in body`). */
export const IN = 'body';

/** errors.InvalidType: a string value is quoted into the message (`typeFailWithData`). */
export function invalidType(path: string, typeName: string, value: string): OpenAPIError {
  return {
    code: 'type',
    name: path,
    value,
    message: `${path} in ${IN} must be of type ${typeName}: ${goQuote(value)}`,
  };
}

/** type.go `schemaInfoForType`: the JSON type and Go format of a decoded value. */
export function schemaInfo(data: unknown): [string, string] {
  if (typeof data === 'boolean') return ['boolean', ''];
  if (typeof data === 'string') return ['string', ''];
  if (typeof data === 'number') return Number.isInteger(data) ? ['integer', 'int64'] : ['number', 'float64'];
  if (Array.isArray(data)) return ['array', ''];
  return ['object', ''];
}

/** type.go `typeValidator.Validate`. */
export function validateType(s: Structural, data: unknown, path: string): OpenAPIError[] {
  switch (typeFailure(s, data)) {
    case 'none':
      return [];
    case 'null':
      return [invalidType(path, s.types.join(','), 'null')];
    case 'format': {
      const [, format] = schemaInfo(data);
      return [invalidType(path, s.format ?? '', format)];
    }
    case 'type':
      return [invalidType(path, s.types.join(','), schemaInfo(data)[0])];
  }
}

/** Which of {@link validateType}'s errors `data` earns, if any. */
export type TypeFailure = 'none' | 'null' | 'format' | 'type';

/**
 * The decision of {@link validateType} without building its error, so the quick validity check
 * (validate.ts `isClean`) and the full walk cannot disagree; it allocates nothing.
 */
export function typeFailure(s: Structural, data: unknown): TypeFailure {
  const types = s.types;
  if (data === null) {
    return types.length > 0 && !types.includes('null') && !s.nullable ? 'null' : 'none';
  }
  // schemaInfo's answer, unpacked.
  let schType: string;
  let format = '';
  const stringOrSlice = typeof data === 'string' || Array.isArray(data);
  if (typeof data === 'boolean') schType = 'boolean';
  else if (typeof data === 'string') schType = 'string';
  else if (typeof data === 'number') {
    const int = Number.isInteger(data);
    schType = int ? 'integer' : 'number';
    format = int ? 'int64' : 'float64';
  } else schType = Array.isArray(data) ? 'array' : 'object';
  const fmt = s.format ?? '';
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (fmt !== '') {
    const isLowerInt = fmt === 'int64' && format === 'int32';
    if (!stringOrSlice && !(types.includes(schType) || format === fmt || isIntFloat || isLowerInt))
      return 'format';
    if (stringOrSlice && !(types.includes('number') || types.includes('integer'))) return 'none';
  }
  return types.includes(schType) || isIntFloat ? 'none' : 'type';
}

/** validator.go `stringValidator.Validate`: the first of maxLength, minLength, pattern to fail. */
export function validateString(s: Structural, data: string, path: string): OpenAPIError[] {
  // values.go MaxLength/MinLength count runes (utf8.RuneCount), not UTF-16 units.
  if (s.maxLength === undefined && s.minLength === undefined && s.pattern === undefined) return [];
  const runes = s.maxLength === undefined && s.minLength === undefined ? 0 : runeCount(data);
  if (s.maxLength !== undefined && runes > s.maxLength) {
    const message = `${path} in ${IN} should be at most ${s.maxLength} chars long`;
    return [{ code: 'tooLong', name: path, value: data, valid: s.maxLength, message }];
  }
  if (s.minLength !== undefined && runes < s.minLength) {
    return [
      {
        code: 'other',
        name: path,
        value: data,
        message: `${path} in ${IN} should be at least ${s.minLength} chars long`,
      },
    ];
  }
  const p = s.pattern;
  if (p !== undefined) {
    // values.go Pattern: an uncompilable pattern fails every value.
    if ('error' in p) {
      const message = `${path} in ${IN} should match '${p.source}, but pattern is invalid: ${p.error}'`;
      return [{ code: 'other', name: path, value: data, message }];
    }
    if (!p.regexp.test(data)) {
      return [
        { code: 'other', name: path, value: data, message: `${path} in ${IN} should match '${p.source}'` },
      ];
    }
  }
  return [];
}

/** The code points of `data`, as `[...data].length` counts them (a lone surrogate is one). */
function runeCount(data: string): number {
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < data.length) {
      const d = data.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** formats.go `formatValidator` and values.go `FormatOf`. */
export function validateFormat(format: string, data: string, path: string): OpenAPIError[] {
  const check = formatChecker(format);
  if (check === undefined || check(data)) return [];
  return [invalidType(path, format, data)];
}

/** A bound as `%v` prints it: int64(bound) against an integer, the float64 otherwise (values.go `*NativeType`). */
export function boundText(bound: number, integerValue: boolean): string {
  return integerValue ? String(Math.trunc(bound)) : goFloat(bound);
}

/**
 * schema.go `numberValidator`: the type and format the range checks use. Since kube-openapi's
 * fix for mismatched formats (kubernetes #136582, in 1.36) only a schema of exactly one type
 * has them, and only that type's own formats count (`int32`/`int64`, `float`/`double`); an
 * integer without one is checked as int64, a number without one not at all.
 */
function rangeKind(s: Structural): { type: string; format: string } | undefined {
  if (s.types.length !== 1) return undefined;
  const [type] = s.types;
  if (type === 'integer')
    return { type, format: s.format === 'int32' || s.format === 'int64' ? s.format : '' };
  if (type === 'number')
    return { type, format: s.format === 'float' || s.format === 'double' ? s.format : '' };
  return undefined;
}

/** values.go `IsValueValidAgainstRange`: whether a decoded number converts to the kind without loss. */
function inRange(kind: { type: string; format: string }, n: number): boolean {
  if (kind.type === 'integer') {
    if (!Number.isInteger(n)) return false;
    return kind.format === 'int32' ? n >= -(2 ** 31) && n <= 2 ** 31 - 1 : n >= -(2 ** 63) && n < 2 ** 63;
  }
  // strconv.ParseFloat(s, 32) fails with ErrRange where the value rounds past float32's range.
  return kind.format !== 'float' || Number.isFinite(Math.fround(n));
}

/**
 * The error `IsValueValidAgainstRange` returns: a plain Go error, not a Validation, so it is
 * reported without a path (code `composite`). `prefix` names what was checked: `Checked` (the
 * value), `MultipleOf`, `Maximum boundary`, `Minimum boundary`.
 */
function rangeError(
  kind: { type: string; format: string },
  n: number,
  prefix: string,
  path: string,
): OpenAPIError | undefined {
  if (inRange(kind, n)) return undefined;
  const as = kind.format === '' ? `${kind.type} (default format)` : `${kind.type} with format ${kind.format}`;
  return { code: 'composite', name: path, message: `${prefix} value must be of type ${as} in ${path}` };
}

/**
 * validator.go `numberValidator.Validate`: the value's range for its type and format, then
 * multipleOf, minimum and maximum, each bound first checked against the same range. A bound in
 * range is compared in the value's own Go type (an int64 value against the bound truncated,
 * `*NativeType`); one out of range is compared as a float64.
 */
export function validateNumber(s: Structural, data: number, path: string): OpenAPIError[] {
  const kind = rangeKind(s);
  if (kind === undefined && s.multipleOf === undefined && s.minimum === undefined && s.maximum === undefined)
    return [];
  const out: OpenAPIError[] = [];
  const err = (message: string): OpenAPIError => ({ code: 'other', name: path, value: data, message });
  const checked = kind && rangeError(kind, data, 'Checked', path);
  if (checked) out.push(checked);
  // Whether the bound is compared natively (and so truncated against an integer value).
  const native = (bound: number, prefix: string): boolean => {
    const range = kind && rangeError(kind, bound, prefix, path);
    if (range) out.push(range);
    return range === undefined && Number.isInteger(data);
  };
  if (s.multipleOf !== undefined) {
    const int = native(s.multipleOf, 'MultipleOf');
    const factor = int ? Math.trunc(s.multipleOf) : s.multipleOf;
    if (factor <= 0) {
      out.push(err(`factor MultipleOf declared for ${path} must be positive: ${boundText(factor, int)}`));
    } else {
      const mult = !int && factor < 1 ? (1 / factor) * data : data / factor;
      if (!Number.isInteger(mult))
        out.push(err(`${path} in ${IN} should be a multiple of ${boundText(factor, int)}`));
    }
  }
  if (s.minimum !== undefined) {
    const int = native(s.minimum, 'Minimum boundary');
    const min = int ? Math.trunc(s.minimum) : s.minimum;
    const ex = s.exclusiveMinimum;
    if (ex ? data <= min : data < min) {
      const word = ex ? 'greater than' : 'greater than or equal to';
      out.push(err(`${path} in ${IN} should be ${word} ${boundText(min, int)}`));
    }
  }
  if (s.maximum !== undefined) {
    const int = native(s.maximum, 'Maximum boundary');
    const max = int ? Math.trunc(s.maximum) : s.maximum;
    const ex = s.exclusiveMaximum;
    if (ex ? data >= max : data > max) {
      const word = ex ? 'less than' : 'less than or equal to';
      out.push(err(`${path} in ${IN} should be ${word} ${boundText(max, int)}`));
    }
  }
  return out;
}

/** Go's reflect.DeepEqual of two decoded JSON values. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** validator.go `basicCommonValidator.Validate`: the value must equal one of the enum's. */
export function validateEnum(s: Structural, data: unknown, path: string): OpenAPIError[] {
  if (!s.enum || s.enum.length === 0) return [];
  // A null never matches (reflect.ValueOf(nil) is not valid); numbers compare by value.
  if (data !== null && s.enum.some((e) => jsonEqual(e, data))) return [];
  const message = `${path} in ${IN} should be one of [${s.enum.map(goValue).join(' ')}]`;
  return [{ code: 'enum', name: path, value: data, values: s.enum, message }];
}
