import { describe, expect, it } from 'vitest';
import {
  fieldValueText,
  goJsonMarshal,
  goNamedString,
  goStruct,
} from '../../../src/server/kinds/field-value.js';

// apimachinery v0.37 pkg/util/validation/field/errors.go ErrorBody: %v for int64/float64/bool,
// %q for string, json.Marshal for the rest.
describe('fieldValueText', () => {
  it('prints numbers and bools with %v', () => {
    expect(fieldValueText(-1)).toBe('-1');
    expect(fieldValueText(1.5)).toBe('1.5');
    expect(fieldValueText(1234567.5)).toBe('1.2345675e+06');
    expect(fieldValueText(true)).toBe('true');
  });

  it('quotes strings with %q', () => {
    expect(fieldValueText('a')).toBe('"a"');
    expect(fieldValueText('a<b>\u0001é')).toBe('"a<b>\\x01é"');
  });

  it('marshals nil, maps and slices as JSON', () => {
    expect(fieldValueText(undefined)).toBe('null');
    expect(fieldValueText(null)).toBe('null');
    expect(fieldValueText({ b: '2', a: '1' })).toBe('{"a":"1","b":"2"}');
    expect(fieldValueText({})).toBe('{}');
    expect(fieldValueText(['x', 'y'])).toBe('["x","y"]');
    expect(fieldValueText({ a: ['<&>'] })).toBe('{"a":["\\u003c\\u0026\\u003e"]}');
  });

  it('marshals named string types and internal structs', () => {
    expect(fieldValueText(goNamedString('a<b'))).toBe('"a\\u003cb"');
    expect(
      fieldValueText(
        goStruct([
          ['Partition', 2],
          ['MaxUnavailable', null],
        ]),
      ),
    ).toBe('{"Partition":2,"MaxUnavailable":null}');
  });

  it('writes JSON numbers and nested rendered values as encoding/json does', () => {
    expect(goJsonMarshal([1, 1.5, 1e21, goNamedString('x')])).toBe('[1,1.5,1e+21,"x"]');
    expect(goJsonMarshal('\u2028')).toBe('"\\u2028"');
  });
});
