/**
 * Real CRDs (support/fixtures/crds/) through watchmark's CRD rules: the printer columns kubectl shows for their examples
 * (real-crds.test.ts says where the rules and words come from).
 */
import { describe, expect, it } from 'vitest';
import { printerColumns } from '../../../../src/server/crd/definition/printer-columns.js';
import { loadExampleObjects, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import { crdOf, versionOf } from './real-crds-fixture.js';

/**
 * The Table cells kubectl shows for the examples: tableconvertor.go `ConvertToTable` reads the
 * first value of a column's first jsonpath result (a `[?(@.type=="Ready")]` filter's match, an
 * absent field: a null cell), prints a string column with jsonpath `PrintResults` (a list as
 * compact JSON) and a date column as an age.
 */
describe('printer columns of the real CRDs', () => {
  const NOW = Date.parse('2026-01-01T00:10:00Z');
  const table = (file: string, obj: Record<string, any>): Array<[string, unknown]> => {
    const version = crdOf(file).spec.versions.find((v) => v.name === versionOf(obj))!;
    const { columns, error } = printerColumns(version.additionalPrinterColumns ?? []);
    expect(error).toBeUndefined();
    obj.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    return columns.map((c) => [c.name, c.cell(obj, NOW)]);
  };
  const example = (file: string): Record<string, any> => structuredClone(loadExampleObjects(file)[0]!);

  it('every column of every served version parses', () => {
    for (const entry of REAL_CRDS)
      for (const v of crdOf(entry.file).spec.versions.filter((x) => x.served))
        expect(printerColumns(v.additionalPrinterColumns ?? []), `${entry.kind} ${v.name}`).toMatchObject({
          columns: v.additionalPrinterColumns?.map((c) => ({ name: c.name })) ?? [],
        });
  });

  it('ScaledObject: condition filters, an absent condition and field, integers, the age', () => {
    const obj = example('scaledobjects-example.yaml');
    obj.status = {
      scaleTargetKind: 'apps/v1.Deployment',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Active', status: 'False' },
        { type: 'Fallback', status: 'False' },
      ],
      triggersTypes: 'example-trigger',
    };
    expect(table('keda.sh_scaledobjects.yaml', obj)).toEqual([
      ['ScaleTargetKind', 'apps/v1.Deployment'],
      ['ScaleTargetName', 'example-deployment'],
      ['Min', 0],
      ['Max', 100],
      ['Ready', 'True'],
      ['Active', 'False'],
      ['Fallback', 'False'],
      ['Paused', null],
      ['Triggers', 'example-trigger'],
      ['Authentications', null],
      ['Age', '10m'],
    ]);
  });

  it('Certificate: a filter written with spaces around ==', () => {
    const obj = example('certificates-example.yaml');
    obj.status = {
      conditions: [
        { type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' },
      ],
      notAfter: '2026-04-01T00:00:00Z',
    };
    expect(table('cert-manager.io_certificates.yaml', obj)).toEqual([
      ['Ready', 'True'],
      ['Secret', 'example-com-tls'],
      ['Issuer', 'ca-issuer'],
      ['Status', 'Certificate is up to date and has not expired'],
      ['Expiration', '2026-04-01T00:00:00Z'],
      ['Age', '10m'],
    ]);
  });

  it('HTTPRoute, VirtualService, Application: a list as compact JSON, an absent field as null', () => {
    expect(table('gateway.networking.k8s.io_httproutes.yaml', example('httproutes-example.yaml'))).toEqual([
      ['Hostnames', '["foo.example.com"]'],
      ['Age', '10m'],
    ]);
    expect(
      table('networking.istio.io_virtualservices.yaml', example('virtualservices-example.yaml')),
    ).toEqual([
      ['Gateways', null],
      ['Hosts', '["reviews"]'],
      ['Age', '10m'],
    ]);
    expect(table('argoproj.io_applications.yaml', example('applications-example.yaml'))).toEqual([
      ['Sync Status', null],
      ['Health Status', null],
      ['Revision', null],
      ['Project', 'default'],
    ]);
  });
});
