/**
 * CEL validation rules of custom resources on writes (src/server/crd/cel), against the
 * messages and paths of apiextensions-apiserver v1.33 pkg/apiserver/schema/cel/validation.go.
 */
import { describe, expect, it } from 'vitest';
import { compileCrdSchemaWithCel } from '../../../../src/server/crd/cel/index.js';
import type { CrdSchemaProps } from '../../../../src/server/crd/schema/structural.js';
import { lines, run } from './fixture.js';

describe('transition rules', () => {
  const immutable = [{ rule: 'self.name == oldSelf.name', message: 'name is immutable' }];
  it('run only on update, with the old value', () => {
    expect(run(immutable, { name: 'a' })).toEqual([]);
    expect(run(immutable, { name: 'a' }, { name: 'a' })).toEqual([]);
    expect(run(immutable, { name: 'b' }, { name: 'a' })).toEqual(['spec: Invalid value: name is immutable']);
  });
  it('optionalOldSelf runs on create too, with oldSelf optional', () => {
    const rules = [
      {
        rule: '!oldSelf.hasValue() || self.minReplicas >= oldSelf.value().minReplicas',
        optionalOldSelf: true,
        message: 'may not shrink',
      },
    ];
    expect(run(rules, { minReplicas: 1 })).toEqual([]);
    expect(run(rules, { minReplicas: 1 }, { minReplicas: 2 })).toEqual([
      'spec: Invalid value: may not shrink',
    ]);
  });
  it('map list items correlate by key; a failing rule on an unchanged value is ratcheted', () => {
    const schema: CrdSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: {
                type: 'object',
                required: ['name'],
                'x-kubernetes-validations': [
                  { rule: 'self.port == oldSelf.port', message: 'port is immutable' },
                  { rule: 'self.port < 100', message: 'port too high' },
                ],
                properties: { name: { type: 'string' }, port: { type: 'integer' } },
              },
            },
          },
        },
      },
    };
    const crd = compileCrdSchemaWithCel(schema);
    const old = {
      spec: {
        ports: [
          { name: 'a', port: 500 },
          { name: 'b', port: 2 },
        ],
      },
    };
    const next = {
      spec: {
        ports: [
          { name: 'b', port: 3 },
          { name: 'a', port: 500 },
          { name: 'c', port: 200 },
        ],
      },
    };
    expect(lines(crd.validate(next, { oldObject: old }))).toEqual([
      'spec.ports[0]: Invalid value: port is immutable',
      'spec.ports[2]: Invalid value: port too high',
    ]);
  });
});
