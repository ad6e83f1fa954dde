/** The RuntimeClass (node.k8s.io/v1): its handler's declarative rules (last), node selector and cells. */
import { describe, expect, it } from 'vitest';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { kind, row } from '../columns-fixture.js';
import { check } from '../validation-fixture.js';

const V1 = 'node.k8s.io/v1';

describe('RuntimeClass', () => {
  it('needs a DNS-label handler, reported after the other errors', () => {
    expect(
      check(V1, 'RuntimeClass', { metadata: { name: 'rc' }, scheduling: { nodeSelector: { 'a b': 'x' } } }),
    ).toEqual([
      expect.stringMatching(/^scheduling\.nodeSelector: Invalid value: "a b": /),
      'handler: Required value',
    ]);
    expect(check(V1, 'RuntimeClass', { metadata: { name: 'rc' }, handler: 'Run_C' })[0]).toMatch(
      /^handler: Invalid value: "Run_C": a lowercase RFC 1123 label/,
    );
  });

  it('keeps its handler', () => {
    const k = kind(V1, 'RuntimeClass');
    const errors = k.validate!(
      { metadata: { name: 'rc' }, handler: 'crun' },
      { metadata: { name: 'rc' }, handler: 'runc' },
    );
    expect(errors.map(fieldErrorText)).toEqual(['handler: Invalid value: null: field is immutable']);
  });

  it('prints its handler', () => {
    expect(row(kind(V1, 'RuntimeClass'), { metadata: { name: 'rc' }, handler: 'runc' })).toEqual([
      'runc',
      '<unknown>',
    ]);
  });
});
