/** CRD cases (index.ts): Definitions refused on create. */

import { type Add, CRDS, type CrdOptions, crd, GROUP, widgetSchema } from './fixture.js';

export function invalidDefinitionCases(add: Add): void {
  const refused = (id: string, body: Record<string, unknown>) =>
    add(`invalid/${id}`, [{ request: { method: 'POST', path: CRDS, body } }], false);
  const withSpec = (spec: Record<string, unknown>, o: CrdOptions = {}) => {
    const c = crd(o);
    c.spec = { ...(c.spec as Record<string, unknown>), ...spec };
    return c;
  };
  const version = (v: Record<string, unknown>) => ({
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: widgetSchema() },
    ...v,
  });
  refused('name-not-plural-group', crd({ name: 'gadgets.g$n.example.com' }));
  refused(
    'name-missing',
    (() => {
      const c = crd();
      c.metadata = {};
      return c;
    })(),
  );
  refused('group-no-dot', crd({ group: 'widgets$n', name: 'widgets.widgets$n' }));
  refused('group-uppercase', crd({ group: 'G$n.Example.com', name: 'widgets.G$n.Example.com' }));
  refused(
    'plural-uppercase',
    crd({ names: { plural: 'Widgets', kind: 'Widget' }, name: `Widgets.${GROUP}` }),
  );
  refused('kind-lowercase', crd({ names: { plural: 'widgets', kind: 'widget' } }));
  refused('kind-missing', crd({ names: { plural: 'widgets' } }));
  refused('list-kind-equals-kind', crd({ names: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' } }));
  refused('singular-bad', crd({ names: { plural: 'widgets', kind: 'Widget', singular: 'Wid get' } }));
  refused('short-name-bad', crd({ names: { plural: 'widgets', kind: 'Widget', shortNames: ['w_d'] } }));
  refused('scope-bad', withSpec({ scope: 'Global' }));
  refused('scope-missing', withSpec({ scope: undefined }));
  refused('versions-missing', withSpec({ versions: [] }));
  refused('two-storage-versions', withSpec({ versions: [version({}), version({ name: 'v2' })] }));
  refused('no-storage-version', withSpec({ versions: [version({ storage: false })] }));
  refused('version-name-bad', withSpec({ versions: [version({ name: 'V1.0' })] }));
  refused('version-duplicate', withSpec({ versions: [version({}), version({ storage: false })] }));
  refused('version-not-served-storage', withSpec({ versions: [version({ served: false })] }));
  refused('schema-missing', withSpec({ versions: [version({ schema: undefined })] }));
  refused('schema-root-not-object', crd({ schema: { type: 'string' } }));
  refused(
    'non-structural-missing-type',
    crd({ schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } }),
  );
  refused(
    'non-structural-anyof-type',
    crd({
      schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }] },
        },
      },
    }),
  );
  refused(
    'properties-and-additional',
    crd({
      schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
    }),
  );
  refused(
    'metadata-extra-properties',
    crd({
      schema: {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      },
    }),
  );
  refused(
    'metadata-name-pattern-ok-other-bad',
    crd({
      schema: {
        type: 'object',
        properties: {
          metadata: {
            type: 'object',
            properties: { name: { type: 'string', pattern: '^a' }, namespace: { type: 'string' } },
          },
        },
      },
    }),
  );
  refused(
    'int-or-string-with-type',
    crd({ schema: widgetSchema({ v: { type: 'string', 'x-kubernetes-int-or-string': true } }) }),
  );
  refused(
    'preserve-unknown-false',
    crd({ schema: widgetSchema({ v: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }) }),
  );
  refused('pattern-invalid', crd({ schema: widgetSchema({ v: { type: 'string', pattern: '([a-z' } }) }));
  refused('default-wrong-type', crd({ schema: widgetSchema({ v: { type: 'integer', default: 'three' } }) }));
  refused(
    'default-fails-maximum',
    crd({ schema: widgetSchema({ v: { type: 'integer', maximum: 3, default: 5 } }) }),
  );
  refused(
    'default-unknown-field-pruned',
    crd({
      schema: widgetSchema({
        v: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } },
      }),
    }),
  );
  refused(
    'default-in-metadata',
    crd({
      schema: {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } } },
      },
    }),
  );
  refused(
    'default-under-nullable-ok-but-enum',
    crd({ schema: widgetSchema({ v: { type: 'string', enum: ['a', 'b'], default: 'c' } }) }),
  );
  refused('enum-wrong-type', crd({ schema: widgetSchema({ v: { type: 'integer', enum: ['a'] } }) }));
  refused(
    'list-type-map-no-keys',
    crd({
      schema: widgetSchema({
        v: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          items: { type: 'object', properties: { k: { type: 'string' } } },
        },
      }),
    }),
  );
  refused(
    'list-type-map-key-not-required',
    crd({
      schema: widgetSchema({
        v: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string' } } },
        },
      }),
    }),
  );
  refused(
    'list-type-set-of-objects',
    crd({
      schema: widgetSchema({
        v: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'object', properties: { k: { type: 'string' } } },
        },
      }),
    }),
  );
  refused(
    'list-type-bad',
    crd({
      schema: widgetSchema({
        v: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } },
      }),
    }),
  );
  refused(
    'map-type-bad',
    crd({
      schema: widgetSchema({
        v: { type: 'object', 'x-kubernetes-map-type': 'loose', additionalProperties: { type: 'string' } },
      }),
    }),
  );
  refused('array-without-items', crd({ schema: widgetSchema({ v: { type: 'array' } }) }));
  refused(
    'cel-syntax-error',
    crd({
      schema: widgetSchema({}, {}) && {
        ...widgetSchema(),
        'x-kubernetes-validations': [{ rule: 'self.spec.size >' }],
      },
    }),
  );
  refused(
    'cel-undefined-field',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'self.spec.nothing > 1' }] },
    }),
  );
  refused(
    'cel-not-bool',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'self.spec.size + 1' }] },
    }),
  );
  refused(
    'cel-message-expression-bad',
    crd({
      schema: {
        ...widgetSchema(),
        'x-kubernetes-validations': [{ rule: 'true', messageExpression: '1 + 1' }],
      },
    }),
  );
  refused(
    'cel-message-newline',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', message: 'a\nb' }] },
    }),
  );
  refused(
    'cel-message-blank',
    crd({ schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', message: '  ' }] } }),
  );
  refused(
    'cel-field-path-blank',
    crd({ schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '  ' }] } }),
  );
  refused(
    'cel-field-path-newline',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.spec\n' }] },
    }),
  );
  refused(
    'cel-rule-newline-no-message',
    crd({ schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true &&\ntrue' }] } }),
  );
  refused(
    'cel-message-expression-blank',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', messageExpression: ' ' }] },
    }),
  );
  refused(
    'cel-reason-bad',
    crd({
      schema: { ...widgetSchema(), 'x-kubernetes-validations': [{ rule: 'true', reason: 'Teapot' }] },
    }),
  );
  refused(
    'cel-field-path-bad',
    crd({
      schema: {
        ...widgetSchema(),
        'x-kubernetes-validations': [{ rule: 'true', fieldPath: '.spec.nothing' }],
      },
    }),
  );
  refused(
    'cel-old-self-on-unset',
    crd({
      schema: widgetSchema({
        size: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self >= oldSelf', optionalOldSelf: 'yes' }],
        },
      }),
    }),
  );
  refused(
    'cel-cost-unbounded',
    crd({
      schema: widgetSchema({
        tags: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, self.all(z, x + y + z != "")))' }],
        },
      }),
    }),
  );
  refused(
    'printer-column-bad-type',
    crd({ columns: [{ name: 'Size', type: 'float', jsonPath: '.spec.size' }] }),
  );
  refused(
    'printer-column-bad-path',
    crd({ columns: [{ name: 'Size', type: 'integer', jsonPath: 'spec.size' }] }),
  );
  refused(
    'printer-column-bad-format',
    crd({ columns: [{ name: 'Size', type: 'integer', format: 'money', jsonPath: '.spec.size' }] }),
  );
  refused('printer-column-no-name', crd({ columns: [{ type: 'integer', jsonPath: '.spec.size' }] }));
  refused('selectable-field-bad', crd({ selectableFields: [{ jsonPath: '.spec.tags' }] }));
  refused('selectable-field-missing', crd({ selectableFields: [{ jsonPath: '.spec.nothing' }] }));
  refused('selectable-field-metadata', crd({ selectableFields: [{ jsonPath: '.metadata.name' }] }));
  refused(
    'scale-bad-paths',
    crd({
      subresources: { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.status.nothing' } },
    }),
  );
  refused(
    'scale-path-not-integer',
    crd({
      subresources: { scale: { specReplicasPath: '.spec.color', statusReplicasPath: '.status.replicas' } },
    }),
  );
  refused('conversion-webhook-no-config', withSpec({ conversion: { strategy: 'Webhook' } }));
  refused('conversion-strategy-bad', withSpec({ conversion: { strategy: 'Magic' } }));
  refused(
    'wrong-api-version-body',
    (() => {
      const c = crd();
      c.apiVersion = 'apiextensions.k8s.io/v1beta1';
      return c;
    })(),
  );
  refused(
    'names-plural-mismatch',
    crd({ name: `widgets.${GROUP}`, names: { plural: 'gadgets', kind: 'Widget' } }),
  );
  refused(
    'many-errors',
    withSpec({
      scope: 'Global',
      names: { plural: 'Widgets', kind: 'widget' },
      versions: [version({ storage: false }), version({ storage: false })],
    }),
  );
  refused(
    'status-extra-keys-in-status-schema',
    crd({
      subresources: { status: {} },
      schema: { type: 'object', properties: { status: { type: 'object' } }, required: ['status'] },
    }),
  );
}
