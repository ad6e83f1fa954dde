/**
 * The shared parameter table of `/openapi/v2` (kube-openapi builder/parameters.go): names hashed
 * from the parameter's Go JSON as the reference names them, the kept-inline exceptions.
 */
import { describe, expect, it } from 'vitest';
import { V2_REFERENCE } from '../../../src/server/openapi/openapi-v2.generated.js';
import { shareParameters } from '../../../src/server/openapi/openapi-v2-parameters.js';

type Json = Record<string, unknown>;

describe('shareParameters', () => {
  const pretty = V2_REFERENCE.parameters.pretty as Json;
  const dryRun = V2_REFERENCE.parameters.dryRun as Json;
  const name = {
    uniqueItems: true,
    type: 'string',
    description: 'name of the Lease',
    name: 'name',
    in: 'path',
    required: true,
  };
  const kindBody = {
    name: 'body',
    in: 'body',
    required: true,
    schema: { $ref: '#/definitions/io.k8s.api.coordination.v1.Lease' },
  };
  const paths = {
    '/a/{name}': { put: { parameters: [kindBody, dryRun] }, parameters: [name, pretty] },
    '/b': { get: { parameters: [pretty] } },
  };

  it('names a shared parameter <name>-<FNV-1 64 of its Go JSON, 6 bytes base64url>, as the reference', () => {
    const { parameters } = shareParameters(paths);
    // The name kube-apiserver 1.37 gives its `pretty` parameter.
    expect(Object.keys(parameters)).toEqual(['pretty-tJGM1-ng']);
    expect(parameters['pretty-tJGM1-ng']).toBe(pretty);
  });

  it('keeps name, dryRun and a body of the kind inline, and leaves its input alone', () => {
    const { paths: out } = shareParameters(paths);
    expect(out['/a/{name}']).toEqual({
      put: { parameters: [kindBody, dryRun] },
      parameters: [name, { $ref: '#/parameters/pretty-tJGM1-ng' }],
    });
    expect(out['/b']).toEqual({ get: { parameters: [{ $ref: '#/parameters/pretty-tJGM1-ng' }] } });
    expect(paths['/b'].get.parameters[0]).toBe(pretty);
  });
});
