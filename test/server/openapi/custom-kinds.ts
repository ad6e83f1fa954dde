/**
 * Hand-made custom kinds, as the CRD serving code adds them to a KindTable once a definition is
 * established: one ResourceKind per served version, with `custom` filled in.
 */
import type { CustomKindInfo, ResourceKind } from '../../../src/server/kinds/types.js';

/** The schema of widgets.example.com's versions. */
export const WIDGET_SCHEMA = {
  type: 'object',
  description: 'Widget is a thing with a size.',
  properties: {
    spec: {
      type: 'object',
      description: 'spec says what the widget should be.',
      required: ['size'],
      properties: {
        size: { type: 'integer', format: 'int32', minimum: 1, description: 'size of the widget, in units.' },
        color: { type: 'string', enum: ['red', 'blue'], default: 'red', description: 'color of the widget.' },
        port: { 'x-kubernetes-int-or-string': true, description: 'port, a number or a name.' },
        note: { type: 'string', nullable: true },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        either: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'string' } },
          oneOf: [{ required: ['a'] }, { required: ['b'] }],
        },
      },
      'x-kubernetes-validations': [{ rule: 'self.size < 100', message: 'too big' }],
    },
    status: {
      type: 'object',
      properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
    },
  },
} as const;

/** One version of widgets.example.com, as the serving code would make it. */
export function widgetKind(
  version: string,
  options: {
    servedVersions?: string[];
    storageVersion?: string;
    schema?: Record<string, unknown> | null;
  } = {},
): ResourceKind {
  const custom = {
    crdName: 'widgets.example.com',
    crdUid: '5b4e0d8a-0000-4000-8000-000000000001',
    storageVersion: options.storageVersion ?? 'v1',
    servedVersions: options.servedVersions ?? [version],
    openAPIV3Schema: options.schema === null ? undefined : (options.schema ?? WIDGET_SCHEMA),
    state: { terminating: false },
  };
  return {
    group: 'example.com',
    version,
    kind: 'Widget',
    plural: 'widgets',
    singular: 'widget',
    namespaced: true,
    shortNames: ['wd'],
    categories: ['all', 'toys'],
    fields: {},
    subresources: ['status', 'scale'],
    generationFields: ['spec'],
    columns: [],
    scale: { specReplicas: 'spec.size', statusReplicas: 'status.replicas', labelSelector: 'status.selector' },
    custom: custom as CustomKindInfo,
  };
}

/** gadgets.tools.example.org/v1beta1: cluster-scoped, no subresources, no schema. */
export function gadgetKind(): ResourceKind {
  const custom = {
    crdName: 'gadgets.tools.example.org',
    crdUid: '5b4e0d8a-0000-4000-8000-000000000002',
    storageVersion: 'v1beta1',
    servedVersions: ['v1beta1'],
    state: { terminating: false },
  };
  return {
    group: 'tools.example.org',
    version: 'v1beta1',
    kind: 'Gadget',
    plural: 'gadgets',
    singular: 'gadget',
    namespaced: false,
    shortNames: [],
    categories: [],
    fields: {},
    subresources: [],
    generationFields: ['spec'],
    columns: [],
    custom: custom as CustomKindInfo,
  };
}
