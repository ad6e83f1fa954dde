/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
} from '../../../../src/server/crd/definition/validation.js';

type Json = Record<string, unknown>;

/** A valid one-version CRD `widgets.example.com`, changed by `edit`. */
function crd(edit: (c: Json & { spec: Json }) => void = () => {}): Json {
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

const v0 = (c: Json & { spec: Json }): Json => (c.spec.versions as Json[])[0];
const schema0 = (c: Json & { spec: Json }): Json => (v0(c).schema as Json).openAPIV3Schema as Json;
const texts = (errs: Array<{ field: string; message: string }>): string[] =>
  errs.map((e) => `${e.field}: ${e.message}`);
const create = (edit: (c: Json & { spec: Json }) => void): string[] =>
  texts(validateCustomResourceDefinition(crd(edit)));

const V1_STORAGE_FALSE =
  '[{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]';

describe('validateCustomResourceDefinition', () => {
  it('accepts a valid CRD, with singular and listKind defaulted when absent', () => {
    expect(validateCustomResourceDefinition(crd())).toEqual([]);
    expect(
      create((c) => {
        c.spec.names = { plural: 'widgets', kind: 'Widget' };
      }),
    ).toEqual([]);
  });

  it.each<[string, (c: Json & { spec: Json }) => void, string[]]>([
    [
      'name not plural.group',
      (c) => {
        c.metadata = { name: 'foo' };
      },
      ['metadata.name: Invalid value: "foo": must be spec.names.plural+"."+spec.group'],
    ],
    [
      'group without a dot',
      (c) => {
        c.metadata = { name: 'widgets.example' };
        c.spec.group = 'example';
      },
      ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
    ],
    [
      'group not a DNS subdomain',
      (c) => {
        c.metadata = { name: 'widgets.Example.com' };
        c.spec.group = 'Example.com';
      },
      [
        "metadata.name: Invalid value: \"widgets.Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.group: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'missing scope',
      (c) => {
        c.spec.scope = undefined;
      },
      ['spec.scope: Required value'],
    ],
    [
      'unknown scope',
      (c) => {
        c.spec.scope = 'Global';
      },
      ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
    ],
    [
      'no storage version',
      (c) => {
        v0(c).storage = false;
      },
      [
        `spec.versions: Invalid value: ${V1_STORAGE_FALSE}: must have exactly one version marked as storage version`,
        'status.storedVersions: Invalid value: null: must have at least one stored version',
      ],
    ],
    [
      'a plural with capitals',
      (c) => {
        c.metadata = { name: 'Widgets.example.com' };
        (c.spec.names as Json).plural = 'Widgets';
      },
      [
        "metadata.name: Invalid value: \"Widgets.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.names.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'a kind with an underscore, kind equal to listKind',
      (c) => {
        c.spec.names = { plural: 'widgets', singular: 'widget', kind: 'Wid_get', listKind: 'Wid_get' };
      },
      [
        "spec.names.kind: Invalid value: \"Wid_get\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.names.listKind: Invalid value: \"Wid_get\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'spec.names.listKind: Invalid value: "Wid_get": kind and listKind may not be the same',
      ],
    ],
    [
      'no kind and no plural',
      (c) => {
        c.metadata = { name: '.example.com' };
        c.spec.names = {};
      },
      [
        "metadata.name: Invalid value: \".example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'spec.names.plural: Required value',
        'spec.names.singular: Required value',
        'spec.names.kind: Required value',
        'spec.names.listKind: Required value',
      ],
    ],
    [
      'a bad short name and category',
      (c) => {
        (c.spec.names as Json).shortNames = ['w_d'];
        (c.spec.names as Json).categories = ['All'];
      },
      [
        "spec.names.shortNames[0]: Invalid value: \"w_d\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.names.categories[0]: Invalid value: \"All\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'a version name that is no DNS-1035 label',
      (c) => {
        v0(c).name = 'V1';
      },
      [
        "spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.version: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'no schema',
      (c) => {
        v0(c).schema = undefined;
      },
      ['spec.versions[0].schema.openAPIV3Schema: Required value'],
    ],
    [
      'preserveUnknownFields true',
      (c) => {
        c.spec.preserveUnknownFields = true;
      },
      [
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    ],
    [
      'deprecationWarning on a version that is not deprecated',
      (c) => {
        v0(c).deprecationWarning = 'old';
      },
      ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions'],
    ],
    [
      'a deprecation warning with a control character',
      (c) => {
        v0(c).deprecated = true;
        v0(c).deprecationWarning = 'é\tx';
      },
      [
        'spec.versions[0].deprecationWarning: Invalid value: "é\\tx": must only contain printable UTF-8 characters; non-printable character found at index 2',
      ],
    ],
  ])('%s', (_name, edit, expected) => {
    expect(create(edit)).toEqual(expected);
  });

  it('reports no versions as Go prints a nil or an empty slice', () => {
    const noVersions = 'must have exactly one version marked as storage version';
    const noStored = 'status.storedVersions: Invalid value: null: must have at least one stored version';
    expect(create((c) => delete c.spec.versions)).toEqual([
      `spec.versions: Invalid value: null: ${noVersions}`,
      noStored,
    ]);
    expect(
      create((c) => {
        c.spec.versions = [];
      }),
    ).toEqual([`spec.versions: Invalid value: []: ${noVersions}`, noStored]);
  });

  it('reports duplicate versions and two storage versions with the internal versions value', () => {
    const errs = create((c) => {
      const versions = c.spec.versions as Json[];
      versions.push({ ...versions[0] });
    });
    const value =
      '[{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]';
    expect(errs).toEqual([
      `spec.versions: Invalid value: ${value}: must contain unique version names`,
      `spec.versions: Invalid value: ${value}: must have exactly one version marked as storage version`,
      // The second "v1" finds its stored version already taken off upstream's map.
      'status.storedVersions: Invalid value: ["v1"]: must have the storage version v1',
    ]);
  });

  it('reports a schema per version when versions differ, and at spec.validation when they share one', () => {
    const shared = create((c) => {
      schema0(c).type = 'string';
    });
    expect(shared).toEqual([
      'spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ]);
    const perVersion = create((c) => {
      const versions = c.spec.versions as Json[];
      versions.push({
        name: 'v2',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'string' } },
      });
    });
    expect(perVersion).toEqual([
      'spec.versions[1].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root',
    ]);
  });

  describe('conversion', () => {
    it.each<[string, Json, string[]]>([
      [
        'an unknown strategy',
        { strategy: 'Magic' },
        ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'],
      ],
      [
        'Webhook without a client config or review versions',
        { strategy: 'Webhook' },
        [
          'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
          'spec.conversion.conversionReviewVersions: Required value',
        ],
      ],
      [
        'Webhook with both url and service, and an unknown review version',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: {
              url: 'https://conv.example.com',
              service: { name: 'conv', namespace: 'default' },
            },
            conversionReviewVersions: ['v2'],
          },
        },
        [
          'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
          'spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1',
        ],
      ],
      [
        'Webhook with an http URL carrying a query',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { url: 'http://conv.example.com/x?a=b' },
            conversionReviewVersions: ['v1'],
          },
        },
        [
          'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
          'spec.conversion.webhookClientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
        ],
      ],
      [
        'Webhook with a service missing its namespace and a bad path',
        {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { service: { name: 'conv', path: 'convert' } },
            conversionReviewVersions: ['v1', 'v1'],
          },
        },
        [
          'spec.conversion.webhookClientConfig.service.namespace: Required value',
          'spec.conversion.webhookClientConfig.service.path: Invalid value: "convert": must start with a \'/\'',
          'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
        ],
      ],
      [
        'None with webhook settings',
        {
          strategy: 'None',
          webhook: { clientConfig: { url: 'https://x.example.com' }, conversionReviewVersions: ['v1'] },
        },
        [
          'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
          'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
        ],
      ],
    ])('%s', (_name, conversion, expected) => {
      expect(
        create((c) => {
          c.spec.conversion = conversion;
        }),
      ).toEqual(expected);
    });

    it('accepts a service webhook with v1 reviews', () => {
      expect(
        create((c) => {
          c.spec.conversion = {
            strategy: 'Webhook',
            webhook: {
              clientConfig: { service: { name: 'conv', namespace: 'default', path: '/convert' } },
              conversionReviewVersions: ['v1'],
            },
          };
        }),
      ).toEqual([]);
    });
  });

  describe('printer columns and subresources', () => {
    it('reports column name, type, format and jsonPath', () => {
      expect(
        create((c) => {
          v0(c).additionalPrinterColumns = [
            { name: 'Color', type: 'text', jsonPath: '.spec.color' },
            { type: 'string', format: 'uuid', jsonPath: 'spec.color' },
            { name: 'Size', type: '', jsonPath: '' },
          ];
        }),
      ).toEqual([
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[1].name: Required value',
        'spec.additionalPrinterColumns[1].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
        'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.color": must be a simple json path starting with .',
        'spec.additionalPrinterColumns[2].type: Required value: must be one of boolean,date,integer,number,string',
        'spec.additionalPrinterColumns[2].JSONPath: Required value',
      ]);
    });

    it('reports scale paths outside .spec and .status', () => {
      expect(
        create((c) => {
          v0(c).subresources = {
            status: {},
            scale: {
              specReplicasPath: '.status.replicas',
              statusReplicasPath: 'status.replicas',
              labelSelectorPath: '.metadata.labels',
            },
          };
        }),
      ).toEqual([
        'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
        'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
      ]);
    });

    it('accepts status and scale subresources with good paths', () => {
      expect(
        create((c) => {
          v0(c).subresources = {
            status: {},
            scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.replicas' },
          };
        }),
      ).toEqual([]);
    });
  });

  describe('API approval of protected groups', () => {
    const inGroup = (annotations?: Json) =>
      create((c) => {
        c.metadata = { name: 'widgets.apps.k8s.io', annotations };
        c.spec.group = 'apps.k8s.io';
      });
    it('requires the approval annotation', () => {
      expect(inGroup()).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
    });
    it('refuses a value that is neither a URL nor "unapproved..."', () => {
      expect(inGroup({ 'api-approved.kubernetes.io': 'yes' })).toEqual([
        'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ]);
    });
    it('accepts a URL or an explicit bypass', () => {
      expect(
        inGroup({ 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' }),
      ).toEqual([]);
      expect(inGroup({ 'api-approved.kubernetes.io': 'unapproved, testing only' })).toEqual([]);
    });
  });
});

describe('real CRDs', () => {
  it("accepts prometheus-operator's PrometheusRule CRD (fixtures/crds/, RE2 inline flags in its patterns)", () => {
    const text = readFileSync(
      new URL(
        '../../../../support/fixtures/crds/monitoring.coreos.com_prometheusrules.yaml',
        import.meta.url,
      ),
      'utf8',
    );
    expect(validateCustomResourceDefinition(parse(text))).toEqual([]);
  });

  it('accepts two versions with their own schemas, status and scale, columns and webhook conversion', () => {
    const schema = (extra: string) => ({
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: { replicas: { type: 'integer', default: 1 }, [extra]: { type: 'string' } },
          },
          status: {
            type: 'object',
            properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
          },
        },
      },
    });
    const version = (name: string, storage: boolean) => ({
      name,
      served: true,
      storage,
      schema: schema(name === 'v1' ? 'color' : 'colour'),
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
      additionalPrinterColumns: [
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: [{ jsonPath: name === 'v1' ? '.spec.color' : '.spec.colour' }],
    });
    expect(
      create((c) => {
        c.spec.versions = [
          version('v1', true),
          { ...version('v2beta1', false), deprecated: true, deprecationWarning: 'use v1' },
        ];
        c.spec.conversion = {
          strategy: 'Webhook',
          webhook: {
            clientConfig: { url: 'https://conv.example.com/convert' },
            conversionReviewVersions: ['v1'],
          },
        };
      }),
    ).toEqual([]);
  });
});

describe('validateCustomResourceDefinitionUpdate', () => {
  const established = (c: Json): Json => ({
    ...c,
    status: {
      acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      storedVersions: ['v1'],
      conditions: [{ type: 'Established', status: 'True' }],
    },
  });

  it('accepts an unchanged CRD', () => {
    expect(validateCustomResourceDefinitionUpdate(crd(), established(crd()))).toEqual([]);
  });

  it('keeps group and plural immutable always, scope and kind once Established', () => {
    const changed = crd((c) => {
      c.spec.scope = 'Cluster';
      (c.spec.names as Json).kind = 'Gadget';
      (c.spec.names as Json).listKind = 'GadgetList';
      (c.spec.names as Json).plural = 'gadgets';
      c.metadata = { name: 'gadgets.example.com' };
    });
    expect(texts(validateCustomResourceDefinitionUpdate(changed, established(crd())))).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
    // Before Established, scope and kind may still change (PrepareForUpdate records v1 as stored).
    expect(texts(validateCustomResourceDefinitionUpdate(changed, crd()))).toEqual([
      'spec.names.plural: Invalid value: "gadgets": field is immutable',
    ]);
  });

  it('refuses dropping a stored version from spec.versions', () => {
    const renamed = crd((c) => {
      v0(c).name = 'v2';
    });
    expect(texts(validateCustomResourceDefinitionUpdate(renamed, established(crd())))).toEqual([
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });
});
