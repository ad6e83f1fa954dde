/**
 * CustomResourceDefinition validation on create and update: each bad CRD
 * yields exactly the field path and message kube-apiserver reports
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
 * printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from '../../../../src/server/crd/definition/validation.js';
import { crd, create, type Json, schema0, V1_STORAGE_FALSE, v0 } from './validation-fixture.js';

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
});
