import { describe, expect, it } from 'vitest';
import {
  type CustomResourceColumnDefinition,
  cellForJSONValue,
  printerColumns,
} from '../../../../src/server/crd/definition/printer-columns.js';

// Expected cells per apiextensions-apiserver tableconvertor.go (ConvertToTable, cellForJSONValue).
const now = Date.parse('2026-01-01T12:00:00Z');
const widget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', creationTimestamp: '2026-01-01T11:55:00Z' },
  spec: {
    replicas: 3,
    ratio: 2.75,
    paused: false,
    tags: ['a', 'b'],
    selector: { app: 'w' },
    size: 1234567.5,
    count: 1.5e6,
  },
  status: {
    conditions: [
      { type: 'Available', status: 'False', lastTransitionTime: '2026-01-01T09:00:00Z' },
      { type: 'Ready', status: 'True', lastTransitionTime: '2025-12-30T12:00:00Z' },
    ],
    nothing: null,
    badTime: 'yesterday',
    emptyTime: '',
  },
};

const cell = (type: string, jsonPath: string, obj: unknown = widget): unknown => {
  const { columns, error } = printerColumns([{ name: 'C', type, jsonPath }]);
  expect(error).toBeUndefined();
  return columns[0]?.cell(obj, now);
};

describe('printer column cells', () => {
  it.each([
    ['string', '.status.conditions[?(@.type=="Ready")].status', 'True'],
    ['string', '.status.conditions[?(@.type=="Gone")].status', null],
    ['string', '.spec.missing', null],
    ['string', '.spec.replicas', '3'],
    ['string', '.spec.ratio', '2.75'],
    ['string', '.spec.size', '1.2345675e+06'],
    // An integral number is int64 here (apimachinery decodes 1500000 as one).
    ['string', '.spec.count', '1500000'],
    ['string', '.spec.paused', 'false'],
    // A list or map prints as compact JSON; only the first value of a list of results.
    ['string', '.spec.tags', '["a","b"]'],
    ['string', '.spec.selector', '{"app":"w"}'],
    ['string', '.spec.tags[*]', 'a'],
    ['string', '.status.conditions[*].type', 'Available'],
    ['string', '.status.nothing', '<no value>'],
    ['integer', '.spec.replicas', 3],
    ['integer', '.spec.ratio', 2],
    ['integer', '.spec.paused', null],
    ['integer', '.spec.tags', null],
    ['integer', '.status.nothing', null],
    ['number', '.spec.ratio', 2.75],
    ['number', '.spec.replicas', 3],
    ['number', '.metadata.name', null],
    ['boolean', '.spec.paused', false],
    ['boolean', '.metadata.name', null],
    ['date', '.metadata.creationTimestamp', '5m'],
    ['date', '.status.conditions[?(@.type=="Ready")].lastTransitionTime', '2d'],
    ['date', '.status.conditions[0].lastTransitionTime', '3h'],
    ['date', '.status.badTime', '<invalid>'],
    ['date', '.status.emptyTime', '<unknown>'],
    ['date', '.spec.replicas', null],
    ['date', '.status.missing', null],
    // An evaluation error prints as a null cell.
    ['string', '.spec.tags[7]', null],
    ['string', '.metadata[?(@.x)]', null],
    // A type outside the five prints nothing.
    ['float', '.spec.ratio', null],
  ])('%s %s -> %j', (type, jsonPath, want) => {
    expect(cell(type, jsonPath)).toEqual(want);
  });

  it('truncates a negative float toward zero for integer columns', () => {
    expect(cellForJSONValue('integer', -2.9, now)).toBe(-2);
  });

  it('reads dates as RFC 3339 only, with fractions and offsets', () => {
    expect(cellForJSONValue('date', '2026-01-01T13:00:00.5+02:00', now)).toBe('59m');
    expect(cellForJSONValue('date', '2026-01-01 11:00:00Z', now)).toBe('<invalid>');
    expect(cellForJSONValue('date', '2026-01-01T11:00:00', now)).toBe('<invalid>');
    expect(cellForJSONValue('date', 'null', now)).toBe('<unknown>');
    expect(cellForJSONValue('date', '0001-01-01T00:00:00Z', now)).toBe('<unknown>');
  });
});

describe('printerColumns (tableconvertor.go New)', () => {
  const defs: CustomResourceColumnDefinition[] = [
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    {
      name: 'Replicas',
      type: 'integer',
      jsonPath: '.spec.replicas',
      description: 'desired',
      format: 'int32',
    },
    { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1 },
  ];

  it('carries name, type, format, description (defaulted) and priority', () => {
    const { columns, error } = printerColumns(defs);
    expect(error).toBeUndefined();
    expect(columns.map(({ cell: _cell, ...rest }) => rest)).toEqual([
      {
        name: 'Ready',
        type: 'string',
        description:
          'Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status',
        priority: 0,
      },
      { name: 'Replicas', type: 'integer', format: 'int32', description: 'desired', priority: 0 },
      {
        name: 'Ratio',
        type: 'number',
        description: 'Custom resource definition column (in JSONPath format): .spec.ratio',
        priority: 1,
      },
    ]);
    expect(columns.map((c) => c.cell(widget, now))).toEqual(['True', 3, 2.75]);
  });

  it('stops at an unparsable jsonPath with the columns so far and the error', () => {
    const { columns, error } = printerColumns([
      defs[0] as CustomResourceColumnDefinition,
      { name: 'Bad', type: 'string', jsonPath: '.a[' },
    ]);
    expect(columns.map((c) => c.name)).toEqual(['Ready']);
    expect(error).toBe('unrecognized column definition ".a["');
  });
});
