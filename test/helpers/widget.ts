/**
 * The Widget: the custom resource tests reach for. One definition,
 * `widgets.example.com` (namespaced; status and scale subresources, printer
 * columns, a selectable field, a default), and one way to make a Widget
 * object. A test that needs another shape overrides these (a group, a scope,
 * a version) rather than writing its own copy; the few that keep a copy say
 * why beside it (a definition-validation case, a schema under test).
 */
import type { KubeObject } from '../../src/index.js';

type ObjectMeta = NonNullable<KubeObject['metadata']>;

/** `widgets.example.com`: apiVersion example.com/v1, kind Widget. */
export function widgetCrd(overrides: { group?: string; scope?: 'Namespaced' | 'Cluster' } = {}): any {
  const group = overrides.group ?? 'example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: overrides.scope ?? 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        shortNames: ['wg'],
        categories: ['all'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  description: 'What the widget should be.',
                  properties: {
                    size: { type: 'integer', minimum: 1, description: 'How big.' },
                    color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red' },
                    replicas: { type: 'integer' },
                  },
                  required: ['size'],
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
                },
              },
            },
          },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          selectableFields: [{ jsonPath: '.spec.color' }],
        },
      ],
    },
  };
}

/** A Widget object, as a client sends it. */
export interface Widget extends KubeObject {
  apiVersion: string;
  kind: 'Widget';
  metadata: ObjectMeta & { name: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/**
 * A Widget named `name` with `spec` (by default `{ size: 1 }`: the definition requires a size),
 * of `example.com/v1` unless `options` say another group or version; `options.metadata` adds
 * to the metadata (labels, ownerReferences).
 */
export function widget(
  name: string,
  spec: Record<string, unknown> = { size: 1 },
  options: {
    group?: string;
    version?: string;
    namespace?: string;
    status?: Record<string, unknown>;
    metadata?: ObjectMeta;
  } = {},
): Widget {
  const { group = 'example.com', version = 'v1', namespace, status } = options;
  return {
    apiVersion: `${group}/${version}`,
    kind: 'Widget',
    metadata: { name, ...(namespace === undefined ? {} : { namespace }), ...options.metadata },
    spec,
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * The smallest definition of `widgets.example.com` that definition validation reads: names
 * (plural and kind only), scope, and one version `v1` whose schema is `openAPIV3Schema`, with
 * `version`'s fields added to it (subresources, selectableFields). For tests of what validation
 * says about a schema; no apiVersion or kind, and nothing defaulted, because validation never
 * sees them at that stage.
 */
export function minimalWidgetCrd(
  openAPIV3Schema: Record<string, unknown>,
  version: Record<string, unknown> = {},
): { metadata: { name: string }; spec: Record<string, unknown> } {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema }, ...version }],
    },
  };
}
