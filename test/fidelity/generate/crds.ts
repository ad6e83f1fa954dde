/**
 * Custom resources: CustomResourceDefinitions refused (each rule once), and
 * the objects of accepted ones: CRUD, patches, apply, list and watch, Tables
 * with printer columns, schema errors, defaulting, pruning, the status and
 * scale subresources, several versions, cluster scope, and the real CRDs of
 * support/fixtures/crds with their examples.
 *
 * Every CRD's group holds `$n` (CRDs are cluster-scoped, cases run at once);
 * every case waits for Established on both servers before using one.
 */

import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../support/fixtures/crds/index.js';
import type { FidelityCase, Step } from '../types.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'g$n.example.com';
const CRD_NAME = `widgets.${GROUP}`;
const API_VERSION = `${GROUP}/v1`;
const NS_COLLECTION = `/apis/${GROUP}/v1/namespaces/$ns/widgets`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSON_PATCH = { 'content-type': 'application/json-patch+json' };
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const APPROVAL = 'status.conditions[type=KubernetesAPIApprovalPolicyConformant]';
const NAMES = 'status.conditions[type=NamesAccepted]';
const APPROVAL_PICK = [
  `${APPROVAL}.status`,
  `${APPROVAL}.reason`,
  `${APPROVAL}.message`,
  `${NAMES}.status`,
  `${NAMES}.reason`,
  'status.conditions[type=Established].type',
];
/** A list's parts but its resourceVersion (the reference's moves with writes of its own). */
const LIST_PICK = ['kind', 'apiVersion', 'items', 'metadata.remainingItemCount'];
const TABLE_PICK = ['kind', 'apiVersion', 'columnDefinitions', 'rows'];

type Schema = Record<string, unknown>;

/** The default schema: a spec with a few typed fields, and a status. */
function widgetSchema(spec: Schema = {}, extra: Schema = {}): Schema {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          size: { type: 'integer' },
          color: { type: 'string' },
          replicas: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
          ...spec,
        },
      },
      status: {
        type: 'object',
        properties: {
          phase: { type: 'string' },
          replicas: { type: 'integer' },
          selector: { type: 'string' },
        },
      },
      ...extra,
    },
  };
}

interface CrdOptions {
  schema?: Schema;
  scope?: 'Namespaced' | 'Cluster';
  versions?: Array<Record<string, unknown>>;
  subresources?: Record<string, unknown>;
  columns?: Array<Record<string, unknown>>;
  selectableFields?: Array<Record<string, unknown>>;
  names?: Record<string, unknown>;
  group?: string;
  name?: string;
}

function crd(o: CrdOptions = {}): Record<string, unknown> {
  const group = o.group ?? GROUP;
  const version: Record<string, unknown> = {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: o.schema ?? widgetSchema() },
  };
  if (o.subresources) version.subresources = o.subresources;
  if (o.columns) version.additionalPrinterColumns = o.columns;
  if (o.selectableFields) version.selectableFields = o.selectableFields;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: o.name ?? `widgets.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: o.names ?? { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: o.versions ?? [version],
    },
  };
}

/** Creates the CRD (not compared) and waits until it is Established on the server. */
function install(body: Record<string, unknown> = crd(), name = CRD_NAME): Step[] {
  return [
    { request: { method: 'POST', path: CRDS, body }, compare: false },
    established(name),
    ...serving(body),
  ];
}

/**
 * Waits until every served version's objects can be listed: kube-apiserver answers 429 (its
 * watch cache of the new resource still initialising) for a moment after Established.
 */
function serving(body: Record<string, unknown>): Step[] {
  const spec = body.spec as {
    group: string;
    names: { plural: string; kind: string; listKind?: string };
    versions: Array<{ name: string; served: boolean }>;
  };
  return spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      waitFor: {
        path: `/apis/${spec.group}/${v.name}/${spec.names.plural}`,
        field: 'kind',
        equals: spec.names.listKind ?? `${spec.names.kind}List`,
      },
    }));
}

/** An object with the resourceVersion a step saved as `rv`. */
function withRv(obj: Record<string, unknown>): Record<string, unknown> {
  return { ...obj, metadata: { ...(obj.metadata as Record<string, unknown>), resourceVersion: '$rv' } };
}

/** A setup step that saves the object's resourceVersion as `rv`. */
function saved(step: Step): Step {
  return { ...step, compare: false, save: { rv: 'metadata.resourceVersion' } } as Step;
}

function established(name: string): Step {
  return { waitFor: { path: `${CRDS}/${name}`, field: 'status.conditions.1.status', equals: 'True' } };
}

function widget(
  name: string,
  spec: Record<string, unknown> = { size: 1 },
  extra: Record<string, unknown> = {},
) {
  return { apiVersion: API_VERSION, kind: 'Widget', metadata: { name }, spec, ...extra };
}

function post(body: unknown, query?: Record<string, string>, path = NS_COLLECTION): Step {
  return { request: { method: 'POST', path, body, ...(query ? { query } : {}) } };
}

function setup(step: Step): Step {
  return { ...step, compare: false } as Step;
}

function patch(
  path: string,
  headers: Record<string, string>,
  body: unknown,
  query?: Record<string, string>,
): Step {
  return { request: { method: 'PATCH', path, headers, body, ...(query ? { query } : {}) } };
}

export function crdCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  const add = (id: string, steps: Step[], namespace = true) =>
    out.push({ id: `crds/${id}`, area: 'crds', steps, ...(namespace ? {} : { namespace: false }) });
  definitionCases(add);
  invalidDefinitionCases(add);
  objectCases(add);
  schemaCases(add);
  defaultingAndPruningCases(add);
  subresourceCases(add);
  versionCases(add);
  realCrdCases(add);
  return out;
}

type Add = (id: string, steps: Step[], namespace?: boolean) => void;

// ---------------------------------------------------------------------------------------------
// The CustomResourceDefinition API itself.

function definitionCases(add: Add): void {
  const item = `${CRDS}/${CRD_NAME}`;
  add('definition/create', [{ request: { method: 'POST', path: CRDS, body: crd() } }]);
  add('definition/create-dry-run', [
    { request: { method: 'POST', path: CRDS, query: { dryRun: 'All' }, body: crd() } },
    { request: { path: item } },
  ]);
  add('definition/create-twice', [...install(), { request: { method: 'POST', path: CRDS, body: crd() } }]);
  // The established definition: conditions and accepted names.
  add('definition/get-established', [...install(), { request: { path: item } }]);
  add('definition/get-established-names', [
    ...install(),
    {
      request: { path: item },
      pick: ['status.acceptedNames', 'status.storedVersions', 'metadata.generation'],
    },
  ]);
  add('definition/get-established-condition-words', [
    ...install(),
    {
      request: { path: item },
      pick: [
        'status.conditions.0.type',
        'status.conditions.0.status',
        'status.conditions.0.reason',
        'status.conditions.0.message',
        'status.conditions.1.type',
        'status.conditions.1.status',
        'status.conditions.1.reason',
        'status.conditions.1.message',
        'status.conditions.2',
      ],
    },
  ]);
  add('definition/list-by-name', [
    ...install(),
    {
      request: { path: CRDS, query: { fieldSelector: `metadata.name=${CRD_NAME}` } },
      pick: ['kind', 'apiVersion', 'items.0.metadata.name', 'items.0.spec'],
    },
  ]);
  add('definition/get-missing', [{ request: { path: `${CRDS}/nothings.g$n.example.com` } }]);
  add('definition/table', [...install(), { request: { path: item, headers: { accept: TABLE } } }]);
  add('definition/update-add-version', [
    ...install(),
    {
      request: { path: item },
      save: { rv: 'metadata.resourceVersion' },
      compare: false,
    },
    {
      request: {
        method: 'PUT',
        path: item,
        body: (() => {
          const c = crd({
            versions: [
              { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: widgetSchema() } },
              { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: widgetSchema() } },
            ],
          });
          (c.metadata as Record<string, unknown>).resourceVersion = '$rv';
          return c;
        })(),
      },
      pick: ['metadata.generation', 'spec', 'status.storedVersions'],
    },
  ]);
  add('definition/update-scope-immutable', [
    ...install(),
    patch(item, MERGE, { spec: { scope: 'Cluster' } }),
  ]);
  add('definition/patch-labels', [
    ...install(),
    {
      ...patch(item, MERGE, { metadata: { labels: { a: 'b' } } }),
      pick: ['metadata.labels', 'metadata.generation'],
    },
  ]);
  add('definition/patch-change-group', [
    ...install(),
    patch(item, MERGE, { spec: { group: 'other$n.example.com' } }),
  ]);
  add('definition/patch-remove-stored-version', [
    ...install(),
    patch(item, JSON_PATCH, [{ op: 'replace', path: '/spec/versions/0/name', value: 'v2' }]),
  ]);
  add('definition/delete', [
    ...install(),
    {
      request: { method: 'DELETE', path: item },
      pick: ['kind', 'metadata.deletionTimestamp', 'metadata.finalizers', 'status.conditions.2'],
    },
    { waitFor: { path: item, field: 'status', absent: true } },
    { request: { path: item } },
  ]);
  add('definition/delete-removes-objects', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item }, compare: false },
    { waitFor: { path: item, field: 'status', absent: true } },
    // The group's discovery goes when its storage does: only then is the path unserved.
    { waitFor: { path: `/apis/${GROUP}/v1`, field: 'kind', absent: true } },
    { request: { path: `${NS_COLLECTION}/w1` } },
  ]);
  add('definition/status-put-ignored-spec', [
    ...install(),
    { request: { path: item }, save: { rv: 'metadata.resourceVersion' }, compare: false },
    {
      ...patch(`${item}/status`, MERGE, { spec: { scope: 'Cluster' } }),
      pick: ['spec.scope', 'metadata.generation'],
    },
  ]);
  add('definition/create-yaml', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        headers: { 'content-type': 'application/yaml' },
        bodyText: [
          'apiVersion: apiextensions.k8s.io/v1',
          'kind: CustomResourceDefinition',
          'metadata: {name: gizmos.g$n.example.com}',
          'spec:',
          '  group: g$n.example.com',
          '  scope: Namespaced',
          '  names: {plural: gizmos, kind: Gizmo}',
          '  versions:',
          '  - name: v1',
          '    served: true',
          '    storage: true',
          '    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}',
          '',
        ].join('\n'),
      },
      pick: ['spec', 'status.acceptedNames'],
    },
  ]);
  add('definition/defaults-filled', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ names: { plural: 'widgets', kind: 'Widget' } }),
      },
      pick: ['spec'],
    },
  ]);
  add('definition/names-conflict-kind', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ name: `gadgets.${GROUP}`, names: { plural: 'gadgets', kind: 'Widget' } }),
      },
      compare: false,
    },
    {
      waitFor: {
        // Until NamesAccepted is decided: which conflict it names is compared below.
        path: `${CRDS}/gadgets.${GROUP}`,
        field: 'status.conditions.0.status',
        equals: 'False',
      },
    },
    {
      request: { path: `${CRDS}/gadgets.${GROUP}` },
      pick: [
        'status.conditions.0.type',
        'status.conditions.0.status',
        'status.conditions.0.reason',
        'status.conditions.0.message',
        'status.conditions.1.type',
        'status.conditions.1.status',
        'status.conditions.1.reason',
        'status.conditions.1.message',
        'status.acceptedNames',
      ],
    },
  ]);
  add('definition/short-names-categories', [
    ...install(
      crd({ names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd$n'], categories: ['all$n'] } }),
    ),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('definition/protected-group-unapproved', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: crd({ group: 'g$n.k8s.io' }),
      },
    },
  ]);
  add('definition/protected-group-approved', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: (() => {
          const c = crd({ group: 'g$n.k8s.io' });
          (c.metadata as Record<string, unknown>).annotations = {
            'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111',
          };
          return c;
        })(),
      },
      compare: false,
    },
    // The approval controller and the names controller race: wait for all three conditions
    // and compare each by its type.
    { waitFor: { path: `${CRDS}/widgets.g$n.k8s.io`, field: 'status.conditions.length', equals: 3 } },
    { request: { path: `${CRDS}/widgets.g$n.k8s.io` }, pick: APPROVAL_PICK },
  ]);
  add('definition/protected-group-unapproved-annotation', [
    {
      request: {
        method: 'POST',
        path: CRDS,
        body: (() => {
          const c = crd({ group: 'g$n.k8s.io' });
          (c.metadata as Record<string, unknown>).annotations = {
            'api-approved.kubernetes.io': 'unapproved, experimental',
          };
          return c;
        })(),
      },
      pick: ['status'],
    },
    { waitFor: { path: `${CRDS}/widgets.g$n.k8s.io`, field: 'status.conditions.length', equals: 3 } },
    { request: { path: `${CRDS}/widgets.g$n.k8s.io` }, pick: APPROVAL_PICK },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Definitions refused on create.

function invalidDefinitionCases(add: Add): void {
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

// ---------------------------------------------------------------------------------------------
// Custom objects: the verbs.

function objectCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  const columns = [
    { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
    { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'the colour' },
    { name: 'Tags', type: 'string', jsonPath: '.spec.tags', priority: 1 },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
  add('object/create', [...install(), post(widget('w1', { size: 3, color: 'red' }))]);
  add('object/create-dry-run', [
    ...install(),
    post(widget('w1'), { dryRun: 'All' }),
    { request: { path: item } },
  ]);
  add('object/create-twice', [...install(), setup(post(widget('w1'))), post(widget('w1'))]);
  add('object/create-generate-name', [
    ...install(),
    post({ apiVersion: API_VERSION, kind: 'Widget', metadata: { generateName: 'w-' }, spec: { size: 1 } }),
  ]);
  add('object/create-no-name', [...install(), post({ apiVersion: API_VERSION, kind: 'Widget', spec: {} })]);
  add('object/create-bad-name', [...install(), post(widget('Bad_Name'))]);
  add('object/create-kind-mismatch', [...install(), post({ ...widget('w1'), kind: 'Gadget' })]);
  add('object/create-version-mismatch', [...install(), post({ ...widget('w1'), apiVersion: `${GROUP}/v9` })]);
  add('object/create-no-kind', [...install(), post({ apiVersion: API_VERSION, metadata: { name: 'w1' } })]);
  add('object/create-namespace-mismatch', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', namespace: 'other' } }),
  ]);
  add('object/create-yaml', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        headers: { 'content-type': 'application/yaml' },
        bodyText: `apiVersion: ${API_VERSION}\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 2\n`,
      },
    },
  ]);
  add('object/create-broken-json', [
    ...install(),
    { request: { method: 'POST', path: NS_COLLECTION, bodyText: '{"apiVersion": "x", ' } },
  ]);
  add('object/get', [...install(), setup(post(widget('w1'))), { request: { path: item } }]);
  add('object/get-missing', [...install(), { request: { path: `${NS_COLLECTION}/nope` } }]);
  add('object/get-unknown-resource', [
    ...install(),
    { request: { path: `/apis/${GROUP}/v1/namespaces/$ns/gadgets` } },
  ]);
  add('object/get-yaml', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: item, headers: { accept: 'application/yaml' } } },
  ]);
  add('object/list', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('object/list-all-namespaces-by-label', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', labels: { pick: 'me' } } })),
    setup(post(widget('w2'))),
    { request: { path: `/apis/${GROUP}/v1/widgets`, query: { labelSelector: 'pick=me' } }, pick: LIST_PICK },
  ]);
  add('object/list-field-selector-name', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'metadata.name=w2' } }, pick: LIST_PICK },
  ]);
  add('object/list-field-selector-unknown', [
    ...install(),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'spec.color=red' } } },
  ]);
  add('object/list-selectable-field', [
    ...install(crd({ selectableFields: [{ jsonPath: '.spec.color' }] })),
    setup(post(widget('w1', { color: 'red' }))),
    setup(post(widget('w2', { color: 'blue' }))),
    { request: { path: NS_COLLECTION, query: { fieldSelector: 'spec.color=blue' } }, pick: LIST_PICK },
  ]);
  add('object/list-limit-continue', [
    ...install(),
    setup(post(widget('w1'))),
    setup(post(widget('w2'))),
    setup(post(widget('w3'))),
    {
      request: { path: NS_COLLECTION, query: { limit: 2 } },
      save: { next: 'metadata.continue' },
      pick: LIST_PICK,
    },
    { request: { path: NS_COLLECTION, query: { limit: 2, continue: '$next' } }, pick: LIST_PICK },
  ]);
  add('object/list-metadata', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: NS_COLLECTION, headers: { accept: METADATA_LIST } }, pick: LIST_PICK },
  ]);
  add('object/table-default-columns', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/table-printer-columns', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red', tags: ['a', 'b'] }))),
    setup(post(widget('w2', {}))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/table-printer-columns-get', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red', tags: ['a', 'b'] }))),
    {
      request: { path: item, headers: { accept: TABLE }, query: { includeObject: 'None' } },
      pick: TABLE_PICK,
    },
  ]);
  add('object/table-printer-columns-metadata-object', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3 }))),
    {
      request: { path: NS_COLLECTION, headers: { accept: TABLE }, query: { includeObject: 'Object' } },
      pick: TABLE_PICK,
    },
  ]);
  add('object/table-column-kinds', [
    ...install(
      crd({
        schema: widgetSchema({
          ratio: { type: 'number' },
          on: { type: 'boolean' },
          nested: { type: 'object', properties: { x: { type: 'string' } } },
        }),
        columns: [
          { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
          { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
          { name: 'Nested', type: 'string', jsonPath: '.spec.nested' },
          { name: 'Size', type: 'string', jsonPath: '.spec.size' },
          { name: 'When', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      }),
    ),
    setup(post(widget('w1', { ratio: 1.5, on: true, nested: { x: 'y' }, size: 4 }))),
    { request: { path: NS_COLLECTION, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/update', [
    ...install(),
    { ...setup(post(widget('w1'))), save: { rv: 'metadata.resourceVersion' } },
    {
      request: {
        method: 'PUT',
        path: item,
        body: { ...widget('w1', { size: 2 }), metadata: { name: 'w1', resourceVersion: '$rv' } },
      },
    },
  ]);
  add('object/update-no-rv', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'PUT', path: item, body: widget('w1', { size: 2 }) } },
  ]);
  add('object/update-stale-rv', [
    ...install(),
    { ...setup(post(widget('w1'))), save: { rv: 'metadata.resourceVersion' } },
    setup(patch(item, MERGE, { spec: { size: 2 } })),
    {
      request: {
        method: 'PUT',
        path: item,
        body: { ...widget('w1', { size: 3 }), metadata: { name: 'w1', resourceVersion: '$rv' } },
      },
    },
  ]);
  add('object/update-missing-creates', [
    ...install(),
    { request: { method: 'PUT', path: item, body: widget('w1') } },
  ]);
  add('object/update-name-mismatch', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'PUT', path: item, body: widget('w2') } },
  ]);
  add('object/patch-merge', [
    ...install(),
    setup(post(widget('w1', { size: 1, color: 'red' }))),
    patch(item, MERGE, { spec: { color: null, size: 5 } }),
  ]);
  add('object/patch-json', [
    ...install(),
    setup(post(widget('w1', { size: 1, tags: ['a'] }))),
    patch(item, JSON_PATCH, [
      { op: 'add', path: '/spec/tags/-', value: 'b' },
      { op: 'replace', path: '/spec/size', value: 9 },
    ]),
  ]);
  add('object/patch-json-test-fails', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, JSON_PATCH, [{ op: 'test', path: '/spec/size', value: 2 }]),
  ]);
  add('object/patch-strategic-415', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, { 'content-type': 'application/strategic-merge-patch+json' }, { spec: { size: 2 } }),
  ]);
  add('object/patch-missing', [...install(), patch(item, MERGE, { spec: { size: 2 } })]);
  add('object/patch-invalid-result', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { spec: { size: 'big' } }),
  ]);
  add('object/patch-change-kind', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { kind: 'Gadget' }),
  ]);
  add('object/apply-create', [
    ...install(),
    patch(item, APPLY, widget('w1', { size: 2, tags: ['x'] }), { fieldManager: 'me' }),
  ]);
  add('object/apply-no-field-manager', [...install(), patch(item, APPLY, widget('w1'))]);
  add('object/apply-conflict', [
    ...install(),
    setup(patch(item, APPLY, widget('w1', { size: 2 }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { size: 3 }), { fieldManager: 'two' }),
  ]);
  add('object/apply-force', [
    ...install(),
    setup(patch(item, APPLY, widget('w1', { size: 2 }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { size: 3 }), { fieldManager: 'two', force: 'true' }),
  ]);
  add('object/apply-list-map', [
    ...install(
      crd({
        schema: widgetSchema({
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, port: { type: 'integer' } },
            },
          },
        }),
      }),
    ),
    setup(patch(item, APPLY, widget('w1', { ports: [{ name: 'a', port: 1 }] }), { fieldManager: 'one' })),
    patch(item, APPLY, widget('w1', { ports: [{ name: 'b', port: 2 }] }), { fieldManager: 'two' }),
  ]);
  add('object/apply-invalid', [
    ...install(),
    patch(item, APPLY, widget('w1', { size: 'big' }), { fieldManager: 'me' }),
  ]);
  add('object/delete', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item } },
    { request: { path: item } },
  ]);
  add('object/delete-missing', [...install(), { request: { method: 'DELETE', path: item } }]);
  add('object/delete-dry-run', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { method: 'DELETE', path: item, query: { dryRun: 'All' } } },
    { request: { path: item } },
  ]);
  add('object/delete-precondition', [
    ...install(),
    setup(post(widget('w1'))),
    {
      request: {
        method: 'DELETE',
        path: item,
        body: { preconditions: { uid: '00000000-0000-0000-0000-000000000000' } },
      },
    },
  ]);
  add('object/delete-with-finalizer', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', finalizers: ['example.com/hold'] } })),
    { request: { method: 'DELETE', path: item } },
    patch(item, JSON_PATCH, [{ op: 'remove', path: '/metadata/finalizers' }]),
    { request: { path: item } },
  ]);
  add('object/delete-collection', [
    ...install(),
    setup(post({ ...widget('w1'), metadata: { name: 'w1', labels: { x: 'y' } } })),
    setup(post(widget('w2'))),
    { request: { method: 'DELETE', path: NS_COLLECTION, query: { labelSelector: 'x=y' } } },
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('object/watch', [
    ...install(),
    {
      watch: {
        path: NS_COLLECTION,
        until: { events: 3 },
        during: [
          post(widget('w1')),
          patch(item, MERGE, { spec: { size: 7 } }),
          { request: { method: 'DELETE', path: item } },
        ],
      },
    },
  ]);
  add('object/watch-initial-events', [
    ...install(),
    setup(post(widget('w1'))),
    {
      watch: {
        path: NS_COLLECTION,
        query: {
          sendInitialEvents: 'true',
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: 'true',
        },
        until: { initialEventsEnd: true },
      },
    },
  ]);
  add('object/watch-field-selector', [
    ...install(crd({ selectableFields: [{ jsonPath: '.spec.color' }] })),
    {
      watch: {
        path: NS_COLLECTION,
        query: { fieldSelector: 'spec.color=red' },
        until: { events: 2 },
        during: [
          post(widget('w1', { color: 'blue' })),
          post(widget('w2', { color: 'red' })),
          patch(item, MERGE, { spec: { color: 'red' } }),
        ],
      },
    },
  ]);
  add('object/cluster-scoped-create', [
    ...install(crd({ scope: 'Cluster' })),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`),
  ]);
  add('object/cluster-scoped-namespace-path', [
    ...install(crd({ scope: 'Cluster' })),
    post(widget('w1'), undefined, NS_COLLECTION),
  ]);
  add('object/cluster-scoped-list', [
    ...install(crd({ scope: 'Cluster' })),
    setup(post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`)),
    { request: { path: `/apis/${GROUP}/v1/widgets` }, pick: LIST_PICK },
    { request: { path: `/apis/${GROUP}/v1/widgets`, headers: { accept: TABLE } }, pick: TABLE_PICK },
  ]);
  add('object/cluster-scoped-with-namespace', [
    ...install(crd({ scope: 'Cluster' })),
    post(
      { ...widget('w1'), metadata: { name: 'w1', namespace: '$ns' } },
      undefined,
      `/apis/${GROUP}/v1/widgets`,
    ),
  ]);
  add('object/namespaced-without-namespace', [
    ...install(),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/widgets`),
  ]);
  add('object/namespace-missing', [
    ...install(),
    post(widget('w1'), undefined, `/apis/${GROUP}/v1/namespaces/nothere$n/widgets`),
  ]);
  add('object/kubectl-get', [
    ...install(crd({ columns })),
    setup(post(widget('w1', { size: 3, color: 'red' }))),
    { kubectl: ['get', `widgets.${GROUP}`, '-n', '$ns'] },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Schema validation of custom objects.

function schemaCases(add: Add): void {
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

// ---------------------------------------------------------------------------------------------
// Defaulting and pruning.

function defaultingAndPruningCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  add('default/on-create', [
    ...install(
      crd({
        schema: widgetSchema({
          color: { type: 'string', default: 'green' },
          size: { type: 'integer', default: 1 },
        }),
      }),
    ),
    post(widget('w1', {})),
  ]);
  add('default/nested-object', [
    ...install(
      crd({
        schema: widgetSchema({
          inner: {
            type: 'object',
            default: {},
            properties: { a: { type: 'string', default: 'x' }, b: { type: 'integer' } },
          },
        }),
      }),
    ),
    post(widget('w1', {})),
  ]);
  add('default/array-items', [
    ...install(
      crd({
        schema: widgetSchema({
          items: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, weight: { type: 'integer', default: 10 } },
            },
          },
        }),
      }),
    ),
    post(widget('w1', { items: [{ name: 'a' }, { name: 'b', weight: 2 }] })),
  ]);
  add('default/spec-missing-not-created', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    post({ apiVersion: API_VERSION, kind: 'Widget', metadata: { name: 'w1' } }),
  ]);
  add('default/nullable-null-kept', [
    ...install(
      crd({ schema: widgetSchema({ color: { type: 'string', nullable: true, default: 'green' } }) }),
    ),
    post(widget('w1', { color: null })),
  ]);
  add('default/null-dropped', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    post(widget('w1', { color: null })),
  ]);
  add('default/on-read-of-stored', [
    ...install(),
    setup(post(widget('w1', {}))),
    {
      request: { path: `${CRDS}/${CRD_NAME}` },
      save: { rv: 'metadata.resourceVersion' },
      compare: false,
    },
    setup(
      patch(`${CRDS}/${CRD_NAME}`, JSON_PATCH, [
        {
          op: 'add',
          path: '/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/color/default',
          value: 'purple',
        },
      ]),
    ),
    { waitFor: { path: `${NS_COLLECTION}/w1`, field: 'spec.color', equals: 'purple' } },
    { request: { path: item } },
    { request: { path: NS_COLLECTION }, pick: LIST_PICK },
  ]);
  add('default/on-update', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    saved(post(widget('w1', {}))),
    { request: { method: 'PUT', path: item, body: withRv(widget('w1', { size: 3 })) } },
  ]);
  add('default/on-merge-patch-remove', [
    ...install(crd({ schema: widgetSchema({ color: { type: 'string', default: 'green' } }) })),
    setup(post(widget('w1', { color: 'red' }))),
    patch(item, MERGE, { spec: { color: null } }),
  ]);
  add('prune/unknown-fields', [
    ...install(),
    post({
      ...widget('w1', { size: 1, junk: 'x', nested: { a: 1 } }),
      extra: 1,
      status: { phase: 'x', junk: 2 },
    }),
  ]);
  add('prune/unknown-metadata-fields', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', bogus: 'x' } }),
  ]);
  add('prune/strict', [
    ...install(),
    post(widget('w1', { size: 1, junk: 'x', other: 2 }), { fieldValidation: 'Strict' }),
  ]);
  add('prune/strict-metadata', [
    ...install(),
    post({ ...widget('w1'), metadata: { name: 'w1', bogus: 'x' } }, { fieldValidation: 'Strict' }),
  ]);
  add('prune/warn', [
    ...install(),
    post({ ...widget('w1', { size: 1, junk: 'x' }), top: true }, { fieldValidation: 'Warn' }),
  ]);
  add('prune/ignore', [
    ...install(),
    post(widget('w1', { size: 1, junk: 'x' }), { fieldValidation: 'Ignore' }),
  ]);
  add('prune/strict-duplicate-field', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        query: { fieldValidation: 'Strict' },
        bodyText: `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":1,"size":2}}`,
      },
    },
  ]);
  add('prune/warn-duplicate-field', [
    ...install(),
    {
      request: {
        method: 'POST',
        path: NS_COLLECTION,
        bodyText: `{"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":1,"size":2}}`,
      },
    },
  ]);
  add('prune/strict-patch', [
    ...install(),
    setup(post(widget('w1'))),
    patch(item, MERGE, { spec: { junk: 1 } }, { fieldValidation: 'Strict' }),
  ]);
  add('prune/preserve-unknown-subtree', [
    ...install(
      crd({
        schema: widgetSchema({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }),
      }),
    ),
    post(widget('w1', { free: { anything: { goes: [1, 'a'] } }, junk: 1 })),
  ]);
  add('prune/preserve-unknown-root', [
    ...install(crd({ schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } })),
    post({ ...widget('w1', { whatever: 1 }), more: { x: 1 } }),
  ]);
  add('prune/preserve-unknown-with-properties', [
    ...install(
      crd({
        schema: widgetSchema({
          free: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { n: { type: 'integer' } },
          },
        }),
      }),
    ),
    post(widget('w1', { free: { n: 'x', extra: 1 } })),
  ]);
  add('prune/embedded-resource', [
    ...install(
      crd({
        schema: widgetSchema({
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
          },
        }),
      }),
    ),
    post(
      widget('w1', {
        template: {
          apiVersion: 'v1',
          kind: 'X',
          metadata: { name: 'n', junk: 1, labels: { a: 'b' } },
          spec: { a: 'x', b: 'y' },
        },
      }),
    ),
  ]);
  add('prune/strict-embedded', [
    ...install(
      crd({
        schema: widgetSchema({
          template: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object' } },
          },
        }),
      }),
    ),
    post(
      widget('w1', { template: { apiVersion: 'v1', kind: 'X', metadata: { name: 'n', junk: 1 }, extra: 2 } }),
      { fieldValidation: 'Strict' },
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The status and scale subresources.

function subresourceCases(add: Add): void {
  const item = `${NS_COLLECTION}/w1`;
  const withStatus = () => crd({ subresources: { status: {} } });
  const withScale = () =>
    crd({
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
    });
  add('status/create-drops-status', [
    ...install(withStatus()),
    post({ ...widget('w1'), status: { phase: 'Ready' } }),
  ]);
  add('status/get', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    { request: { path: `${item}/status` } },
  ]);
  add('status/get-missing-subresource', [
    ...install(),
    setup(post(widget('w1'))),
    { request: { path: `${item}/status` } },
  ]);
  add('status/patch', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(`${item}/status`, MERGE, { status: { phase: 'Ready' }, spec: { size: 9 } }),
  ]);
  add('status/put', [
    ...install(withStatus()),
    saved(post(widget('w1'))),
    {
      request: {
        method: 'PUT',
        path: `${item}/status`,
        body: withRv({ ...widget('w1', { size: 4 }), status: { phase: 'Done', replicas: 1 } }),
      },
    },
  ]);
  add('status/main-put-ignores-status', [
    ...install(withStatus()),
    saved(post(widget('w1'))),
    {
      request: {
        method: 'PUT',
        path: item,
        body: withRv({ ...widget('w1', { size: 2 }), status: { phase: 'x' } }),
      },
    },
  ]);
  add('status/generation', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    setup(patch(item, MERGE, { spec: { size: 2 } })),
    setup(patch(`${item}/status`, MERGE, { status: { phase: 'A' } })),
    setup(patch(item, MERGE, { metadata: { labels: { a: 'b' } } })),
    { request: { path: item } },
  ]);
  add('status/generation-without-subresource', [
    ...install(),
    setup(post(widget('w1'))),
    setup(patch(item, MERGE, { status: { phase: 'A' } })),
    { request: { path: item } },
  ]);
  add('status/invalid', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(`${item}/status`, MERGE, { status: { replicas: 'many' } }),
  ]);
  add('status/apply', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    patch(
      `${item}/status`,
      APPLY,
      { apiVersion: API_VERSION, kind: 'Widget', metadata: { name: 'w1' }, status: { phase: 'P' } },
      { fieldManager: 'ctl' },
    ),
  ]);
  add('scale/get', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    setup(patch(`${item}/status`, MERGE, { status: { replicas: 2, selector: 'app=w' } })),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/get-unset', [
    ...install(withScale()),
    setup(post(widget('w1', {}))),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/put', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    {
      request: {
        method: 'PUT',
        path: `${item}/scale`,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'w1', namespace: '$ns' },
          spec: { replicas: 5 },
        },
      },
    },
    { request: { path: item } },
  ]);
  add('scale/patch', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    patch(`${item}/scale`, MERGE, { spec: { replicas: 7 } }),
  ]);
  add('scale/put-negative', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    {
      request: {
        method: 'PUT',
        path: `${item}/scale`,
        body: {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'w1', namespace: '$ns' },
          spec: { replicas: -1 },
        },
      },
    },
  ]);
  add('scale/missing-subresource', [
    ...install(withStatus()),
    setup(post(widget('w1'))),
    { request: { path: `${item}/scale` } },
  ]);
  add('scale/missing-object', [...install(withScale()), { request: { path: `${item}/scale` } }]);
  add('scale/kubectl-scale', [
    ...install(withScale()),
    setup(post(widget('w1', { replicas: 3 }))),
    { kubectl: ['scale', `widgets.${GROUP}/w1`, '-n', '$ns', '--replicas=4'] },
    { request: { path: item }, pick: ['spec', 'metadata.generation'] },
  ]);
}

// ---------------------------------------------------------------------------------------------
// Versions and discovery.

function versionCases(add: Add): void {
  const twoVersions = (v2: Record<string, unknown> = {}) =>
    crd({
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: widgetSchema() } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: widgetSchema() }, ...v2 },
      ],
    });
  add('versions/read-through-other', [
    ...install(twoVersions()),
    setup(post(widget('w1'))),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets/w1` } },
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/create-through-non-storage', [
    ...install(twoVersions()),
    post(
      { ...widget('w1'), apiVersion: `${GROUP}/v2` },
      undefined,
      `/apis/${GROUP}/v2/namespaces/$ns/widgets`,
    ),
    { request: { path: `${NS_COLLECTION}/w1` } },
  ]);
  add('versions/not-served', [
    ...install(twoVersions({ served: false })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` } },
  ]);
  add('versions/deprecated-warning', [
    ...install(twoVersions({ deprecated: true, deprecationWarning: 'v2 is going away' })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/deprecated-default-warning', [
    ...install(twoVersions({ deprecated: true })),
    { request: { path: `/apis/${GROUP}/v2/namespaces/$ns/widgets` }, pick: LIST_PICK },
  ]);
  add('versions/each-its-schema', [
    ...install(twoVersions({ schema: { openAPIV3Schema: widgetSchema({ size: { type: 'string' } }) } })),
    post(
      { ...widget('w1', { size: 'big' }), apiVersion: `${GROUP}/v2` },
      undefined,
      `/apis/${GROUP}/v2/namespaces/$ns/widgets`,
    ),
  ]);
  add('discovery/group-version', [
    ...install(
      crd({
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
      }),
    ),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('discovery/group', [...install(twoVersions()), { request: { path: `/apis/${GROUP}` } }]);
  add('discovery/apis-list', [
    ...install(twoVersions()),
    { request: { path: '/apis' }, pick: [`groups[name=${GROUP}]`] },
  ]);
  add('discovery/aggregated', [
    ...install(twoVersions()),
    {
      request: {
        path: '/apis',
        headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
      },
      pick: [`items[metadata.name=${GROUP}]`],
    },
  ]);
  add('discovery/cluster-scoped', [
    ...install(crd({ scope: 'Cluster' })),
    { request: { path: `/apis/${GROUP}/v1` } },
  ]);
  add('discovery/unknown-version', [...install(), { request: { path: `/apis/${GROUP}/v7` } }]);
}

// ---------------------------------------------------------------------------------------------
// The real CRDs and their examples.

function realCrdCases(add: Add): void {
  for (const real of REAL_CRDS) {
    const body = loadRealCrd(real.file);
    const name = `${real.plural}.${real.group}`;
    const steps: Step[] = [
      { request: { method: 'POST', path: CRDS, body }, pick: ['metadata.name', 'spec', 'status'] },
      established(name),
      ...serving(body),
      { request: { path: `${CRDS}/${name}` }, pick: ['status.acceptedNames', 'status.storedVersions'] },
    ];
    for (const file of real.examples) {
      for (const object of loadExampleObjects(file)) {
        const apiVersion = String(object.apiVersion);
        const namespaced = (body.spec as { scope?: string }).scope === 'Namespaced';
        const metadata = { ...(object.metadata as Record<string, unknown>) };
        if (namespaced) metadata.namespace = '$ns';
        else delete metadata.namespace;
        steps.push({
          request: {
            method: 'POST',
            path: `/apis/${apiVersion}/${namespaced ? 'namespaces/$ns/' : ''}${real.plural}`,
            body: { ...object, metadata },
          },
        });
      }
    }
    add(`real/${real.plural}.${real.group}`, steps);
  }
}
