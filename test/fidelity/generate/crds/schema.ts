/** CRD cases (index.ts): Schema validation of custom objects. */

import {
  type Add,
  API_VERSION,
  CRDS,
  crd,
  install,
  MERGE,
  NS_COLLECTION,
  patch,
  post,
  type Schema,
  setup,
  widget,
  widgetSchema,
} from './fixture.js';

export function schemaCases(add: Add): void {
  const rejected = (id: string, spec: Schema, value: Record<string, unknown>, extra: Schema = {}) =>
    add(`schema/${id}`, [...install(crd({ schema: widgetSchema(spec, extra) })), post(widget('w1', value))]);
  rejected('type-string-for-integer', {}, { size: 'big' });
  rejected('type-integer-for-string', {}, { color: 5 });
  rejected('type-float-for-integer', {}, { size: 1.5 });
  rejected('type-object-for-array', {}, { tags: { a: 1 } });
  rejected('type-array-item', {}, { tags: ['a', 2, true] });
  rejected('type-null', {}, { color: null });
  rejected('nullable-null-accepted', { note: { type: 'string', nullable: true } }, { note: null });
  rejected('enum', { mode: { type: 'string', enum: ['fast', 'slow'] } }, { mode: 'medium' });
  rejected('enum-integer', { level: { type: 'integer', enum: [1, 2, 3] } }, { level: 4 });
  rejected('minimum', { n: { type: 'integer', minimum: 2 } }, { n: 1 });
  rejected('maximum', { n: { type: 'integer', maximum: 2 } }, { n: 3 });
  rejected('exclusive-minimum', { n: { type: 'integer', minimum: 2, exclusiveMinimum: true } }, { n: 2 });
  rejected('exclusive-maximum', { n: { type: 'number', maximum: 2, exclusiveMaximum: true } }, { n: 2 });
  rejected('multiple-of', { n: { type: 'integer', multipleOf: 3 } }, { n: 4 });
  rejected('min-length', { s: { type: 'string', minLength: 3 } }, { s: 'ab' });
  rejected('max-length', { s: { type: 'string', maxLength: 3 } }, { s: 'abcd' });
  rejected('pattern', { s: { type: 'string', pattern: '^[a-z]+$' } }, { s: 'ab1' });
  rejected('min-items', { l: { type: 'array', minItems: 2, items: { type: 'string' } } }, { l: ['a'] });
  rejected('max-items', { l: { type: 'array', maxItems: 1, items: { type: 'string' } } }, { l: ['a', 'b'] });
  rejected(
    'unique-items-set',
    { l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
    { l: ['a', 'a'] },
  );
  rejected(
    'list-map-duplicate-key',
    {
      l: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, v: { type: 'integer' } },
        },
      },
    },
    {
      l: [
        { name: 'a', v: 1 },
        { name: 'a', v: 2 },
      ],
    },
  );
  rejected(
    'min-properties',
    { m: { type: 'object', minProperties: 2, additionalProperties: { type: 'string' } } },
    { m: { a: 'x' } },
  );
  rejected(
    'max-properties',
    { m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } },
    { m: { a: 'x', b: 'y' } },
  );
  rejected(
    'additional-properties-type',
    { m: { type: 'object', additionalProperties: { type: 'integer' } } },
    { m: { a: 'x' } },
  );
  rejected(
    'required-missing',
    {
      inner: {
        type: 'object',
        required: ['a', 'b'],
        properties: { a: { type: 'string' }, b: { type: 'string' } },
      },
    },
    { inner: {} },
  );
  add('schema/required-spec', [
    ...install(crd({ schema: { ...widgetSchema(), required: ['spec'] } })),
    post({ apiVersion: API_VERSION, kind: 'Widget', metadata: { name: 'w1' } }),
  ]);
  rejected('int-or-string', { port: { 'x-kubernetes-int-or-string': true } }, { port: true });
  rejected('int-or-string-ok', { port: { 'x-kubernetes-int-or-string': true } }, { port: '80' });
  rejected('format-date-time', { at: { type: 'string', format: 'date-time' } }, { at: 'yesterday' });
  rejected('format-unknown-ignored', { at: { type: 'string', format: 'email' } }, { at: 'nope' });
  rejected('all-of', { n: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 3 }] } }, { n: 5 });
  rejected('one-of', { n: { type: 'integer', oneOf: [{ minimum: 5 }, { maximum: 1 }] } }, { n: 3 });
  rejected('not', { s: { type: 'string', not: { enum: ['x'] } } }, { s: 'x' });
  rejected('many-errors', { n: { type: 'integer', minimum: 5, multipleOf: 2 } }, { n: 1 });
  rejected(
    'embedded-resource-missing-kind',
    {
      inner: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
    },
    { inner: { metadata: { name: 'x' } } },
  );
  rejected(
    'embedded-resource-ok',
    {
      inner: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
    },
    { inner: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', junk: 1 }, data: { a: 'b' } } },
  );
  add('schema/metadata-name-too-long', [...install(), post(widget(`w${'x'.repeat(253)}`))]);
  add('schema/metadata-name-pattern', [
    ...install(
      crd({
        schema: {
          ...widgetSchema(),
          properties: {
            ...(widgetSchema().properties as Schema),
            metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } },
          },
        },
      }),
    ),
    post(widget('toolong')),
  ]);
  add('schema/metadata-bad-labels', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', labels: { 'bad key!': 'x' } } }),
  ]);
  const celSchema = (rules: Array<Record<string, unknown>>, at: 'spec' | 'size', spec: Schema = {}) => {
    const schema =
      at === 'spec'
        ? widgetSchema(spec, {})
        : widgetSchema({ ...spec, size: { type: 'integer', 'x-kubernetes-validations': rules } });
    if (at === 'spec') ((schema.properties as Schema).spec as Schema)['x-kubernetes-validations'] = rules;
    return schema;
  };
  const cel = (
    id: string,
    rules: Array<Record<string, unknown>>,
    value: Record<string, unknown>,
    at: 'spec' | 'size' = 'spec',
    spec: Schema = {},
  ) => {
    add(`cel/${id}`, [...install(crd({ schema: celSchema(rules, at, spec) })), post(widget('w1', value))]);
  };
  /** A definition whose rules' estimated cost is over the budget: the refusal is what is compared. */
  const celRefused = (id: string, rules: Array<Record<string, unknown>>) => {
    add(`cel/${id}`, [
      { request: { method: 'POST', path: CRDS, body: crd({ schema: celSchema(rules, 'spec') }) } },
    ]);
  };
  cel('rule-message', [{ rule: 'self.size < 10', message: 'size must be below ten' }], { size: 12 });
  cel('rule-no-message', [{ rule: 'self.size < 10' }], { size: 12 });
  cel('rule-passes', [{ rule: 'self.size < 10' }], { size: 2 });
  // string(int) in a message is over the estimated cost budget however bounded: compared as the
  // definition's refusal; a message built from a bounded string is the working case.
  celRefused('message-expression-cost', [
    { rule: 'self.size < 10', messageExpression: '"size is " + string(self.size)' },
  ]);
  cel(
    'message-expression',
    [{ rule: 'self.color != "red"', messageExpression: '"colour " + self.color + " is taken"' }],
    { color: 'red' },
    'spec',
    { color: { type: 'string', maxLength: 20 } },
  );
  cel(
    'message-expression-empty',
    [{ rule: 'self.size < 10', messageExpression: '""', message: 'fallback' }],
    { size: 12 },
  );
  cel(
    'reason-field-path',
    [{ rule: 'self.size < 10', reason: 'FieldValueForbidden', fieldPath: '.size', message: 'no' }],
    { size: 12 },
  );
  cel('reason-duplicate', [{ rule: 'self.size < 10', reason: 'FieldValueDuplicate', message: 'dup' }], {
    size: 12,
  });
  cel(
    'two-rules',
    [
      { rule: 'self.size < 10', message: 'small' },
      { rule: 'has(self.color)', message: 'colour needed' },
    ],
    { size: 12 },
  );
  cel('has-optional', [{ rule: '!has(self.color) || self.color != "red"', message: 'not red' }], {
    color: 'red',
  });
  cel('on-scalar', [{ rule: 'self % 2 == 0', message: 'even' }], { size: 3 }, 'size');
  cel(
    'string-functions',
    [{ rule: 'self.color.startsWith("r") && self.color.size() < 4', message: 'r-colour' }],
    { color: 'blue', size: 1 },
  );
  const lowercaseTags = [{ rule: 'self.tags.all(t, t.matches("^[a-z]+$"))', message: 'lowercase tags' }];
  celRefused('list-functions-cost', lowercaseTags);
  cel('list-functions', lowercaseTags, { tags: ['ok', 'Bad'] }, 'spec', {
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } },
  });
  cel('runtime-error', [{ rule: 'self.tags[5] == "x"' }], { tags: ['a'] });
  add('cel/transition-rule', [
    ...install(
      crd({
        schema: widgetSchema({
          size: {
            type: 'integer',
            'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may only grow' }],
          },
        }),
      }),
    ),
    setup(post(widget('w1', { size: 5 }))),
    patch(`${NS_COLLECTION}/w1`, MERGE, { spec: { size: 4 } }),
    patch(`${NS_COLLECTION}/w1`, MERGE, { spec: { size: 6 } }),
  ]);
  add('cel/immutable', [
    ...install(
      crd({
        schema: widgetSchema({
          color: {
            type: 'string',
            'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'color is immutable' }],
          },
        }),
      }),
    ),
    setup(post(widget('w1', { color: 'red' }))),
    patch(`${NS_COLLECTION}/w1`, MERGE, { spec: { color: 'blue' } }),
  ]);
  add('cel/root-rule-metadata', [
    ...install(
      crd({
        schema: {
          ...widgetSchema(),
          'x-kubernetes-validations': [
            { rule: 'self.metadata.name.startsWith("w")', message: 'name starts with w' },
          ],
        },
      }),
    ),
    post(widget('x1')),
  ]);
}
