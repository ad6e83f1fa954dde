/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import { lines } from './fixture.js';

describe('real rules: Gateway API HTTPRoute', () => {
  const crd = parse(
    readFileSync(
      new URL('../../../../support/fixtures/crds/gateway.networking.k8s.io_httproutes.yaml', import.meta.url),
      'utf8',
    ),
  );
  const version = crd.spec.versions.find((v: { storage: boolean }) => v.storage);
  const schema = compileCrdSchemaWithCel(version.schema.openAPIV3Schema);
  const route = (rules: unknown[]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'r' },
    spec: { rules },
  });
  it('accepts a valid route', () => {
    expect(
      lines(schema.validate(route([{ matches: [{ path: { type: 'PathPrefix', value: '/foo' } }] }]))),
    ).toEqual([]);
  });
  it('refuses a path value that does not start with /', () => {
    const errs = lines(
      schema.validate(route([{ matches: [{ path: { type: 'PathPrefix', value: 'foo' } }] }])),
    );
    expect(errs).toContain(
      "spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
    );
  });
});
