import { describe, expect, it } from 'vitest';
import { applyPatch, PATCH_CONTENT_TYPES, patchContentType } from '../../../src/protocol/patch/index.js';
import { StatusError } from '../../../src/protocol/status.js';

const pod = {
  kind: 'Pod',
  metadata: { name: 'p', labels: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: '1' }] },
};

describe('applyPatch', () => {
  it.each([
    ['application/merge-patch+json', { spec: { containers: [{ name: 'd' }] } }, [{ name: 'd' }]],
    [
      'application/strategic-merge-patch+json',
      { spec: { containers: [{ name: 'd' }] } },
      [{ name: 'd' }, { name: 'c', image: '1' }],
    ],
    [
      'application/json-patch+json',
      [{ op: 'add', path: '/spec/containers/-', value: { name: 'd' } }],
      [{ name: 'c', image: '1' }, { name: 'd' }],
    ],
    [
      'application/strategic-merge-patch+json; charset=utf-8',
      { spec: { containers: [{ name: 'c', image: '2' }] } },
      [{ name: 'c', image: '2' }],
    ],
    ['Application/Merge-Patch+JSON ;charset=UTF-8', { spec: { containers: [] } }, []],
  ])('dispatches %s', (contentType, body, expected) => {
    const result = applyPatch(pod, body, contentType, 'Pod') as typeof pod;
    expect(result.spec.containers).toEqual(expected);
    expect(pod.spec.containers).toEqual([{ name: 'c', image: '1' }]);
  });

  it.each(['application/apply-patch+yaml', 'application/json', 'text/plain', ''])(
    'answers 415 for %j',
    (contentType) => {
      try {
        applyPatch(pod, {}, contentType, 'Pod');
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(StatusError);
        const status = (err as StatusError).status;
        expect(status.code).toBe(415);
        expect(status.reason).toBe('UnsupportedMediaType');
        for (const type of PATCH_CONTENT_TYPES) expect(status.message).toContain(type);
      }
    },
  );

  it('patchContentType strips parameters', () => {
    expect(patchContentType('application/json-patch+json; charset=utf-8')).toBe(
      'application/json-patch+json',
    );
    expect(patchContentType('application/json')).toBeUndefined();
  });
});
