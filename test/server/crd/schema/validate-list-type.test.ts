/**
 * Custom-object validation: each keyword with kube-apiserver's field path and message
 * (kube-openapi pkg/validation/errors/schema.go wording, converted by apiextensions-apiserver
 * validation.go `kubeOpenAPIResultToFieldErrors`, printed as apimachinery `field.Error`).
 */
import { describe, expect, it } from 'vitest';
import { compileStructural } from '../../../../src/server/crd/schema/structural.js';
import { validateCustomObject } from '../../../../src/server/crd/schema/validate.js';

describe('CRD schema validation: x-kubernetes-list-type', () => {
  const schema = compileStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          ports: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
          routes: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['host', 'port'],
            items: { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer' } } },
          },
          byName: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              'x-kubernetes-list-type': 'set',
              items: { type: 'integer' },
            },
          },
        },
      },
    },
  });
  const texts = (spec: unknown) =>
    validateCustomObject(schema, { spec }).map((e) => `${e.field}: ${e.message}`);

  it('names the second occurrence of a set value, once', () => {
    expect(texts({ tags: ['a', 'b', 'a', 'a', 'b'] })).toEqual([
      'spec.tags[2]: Duplicate value: "a"',
      'spec.tags[4]: Duplicate value: "b"',
    ]);
  });

  it('names a duplicate map key as the key object', () => {
    expect(
      texts({
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 81 },
        ],
      }),
    ).toEqual(['spec.ports[1]: Duplicate value: {"name":"http"}']);
    expect(
      texts({
        routes: [
          { host: 'a', port: 1 },
          { host: 'a', port: 2 },
          { port: 1, host: 'a' },
        ],
      }),
    ).toEqual(['spec.routes[2]: Duplicate value: {"host":"a","port":1}']);
  });

  it('keys a map value by [key] in the path', () => {
    expect(texts({ byName: { x: [1, 1] } })).toEqual(['spec.byName[x][1]: Duplicate value: 1']);
  });

  it('refuses a non-object item of a map list', () => {
    expect(texts({ ports: ['http'] })).toContain(
      'spec.ports[0]: Invalid value: "http": must be an object for an array of list-type map',
    );
  });
});
