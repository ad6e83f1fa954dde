/** What the CustomResourceDefinition validation suites share: a valid CRD to edit, and the texts of its errors. */
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';

export type Json = Record<string, unknown>;

/** A valid one-version CRD `widgets.example.com`, changed by `edit`. */
export function crd(edit: (c: Json & { spec: Json }) => void = () => {}): Json {
  const c = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
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
                  properties: { color: { type: 'string' }, size: { type: 'integer' } },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    } as Json,
  };
  edit(c);
  return c;
}

export const v0 = (c: Json & { spec: Json }): Json => (c.spec.versions as Json[])[0];
export const schema0 = (c: Json & { spec: Json }): Json => (v0(c).schema as Json).openAPIV3Schema as Json;
export const texts = (errs: Array<{ field: string; message: string }>): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);
export const create = (edit: (c: Json & { spec: Json }) => void): string[] =>
  texts(validateCustomResourceDefinition(crd(edit)));

export const V1_STORAGE_FALSE =
  '[{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]';
