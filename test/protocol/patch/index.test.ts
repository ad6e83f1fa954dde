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

describe("a PATCH request's JSON patch answers as kube-apiserver (patch.go `applyJSPatch`)", () => {
  const JSON_PATCH = 'application/json-patch+json';
  const failure = (body: unknown) => {
    try {
      applyPatch(pod, body, JSON_PATCH, 'Pod');
    } catch (err) {
      return (err as StatusError).status;
    }
    throw new Error('no error');
  };

  it.each([
    ['a missing path', [{ op: 'replace', path: '/spec/nope', value: 1 }]],
    ['a failed test', [{ op: 'test', path: '/metadata/name', value: 'q' }]],
    ['an unknown op', [{ op: 'frobnicate', path: '/a' }]],
    ['an op without a path', [{ op: 'add', value: 1 }]],
    ['a malformed pointer', [{ op: 'add', path: 'spec', value: 1 }]],
  ])('%s: 422 Invalid with the generic message and empty details', (_, body) => {
    expect(failure(body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
  });

  it("a body or an operation of the wrong JSON type: 400 with encoding/json's message", () => {
    expect(failure({ op: 'add' })).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
    expect(failure(['add'])).toMatchObject({
      code: 400,
      message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    });
  });

  it('a null body is no operations', () => {
    expect(applyPatch(pod, null, JSON_PATCH, 'Pod')).toEqual(pod);
  });
});
