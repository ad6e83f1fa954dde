/** The access reviews' validation messages (pkg/apis/authorization/validation), as the reference words them. */
import { describe, expect, it } from 'vitest';
import {
  reviewInvalid,
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSubjectAccessReview,
} from '../../../../src/server/kinds/authorization/review-validation.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);

describe('access review validation', () => {
  it('needs exactly one kind of attributes and a subject', () => {
    expect(texts(validateSubjectAccessReview({ metadata: { name: 'x' }, spec: {} }))).toEqual([
      'spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
      'spec.user: Invalid value: "": at least one of user or group must be specified',
      'metadata: Invalid value: {"name":"x"}: must be empty',
    ]);
    expect(
      texts(
        validateSelfSubjectAccessReview({
          spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } },
        }),
      ),
    ).toEqual([
      'spec: Invalid value: {"Path":"/x","Verb":"get"}: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ]);
  });

  it('shows the metadata with the field manager record, ignoring it in the check', () => {
    const managedFields = [{ manager: 'm', operation: 'Update' }];
    expect(
      validateSubjectAccessReview({
        metadata: { managedFields },
        spec: { user: 'u', nonResourceAttributes: {} },
      }),
    ).toEqual([]);
    expect(
      texts(
        validateSubjectAccessReview({
          metadata: { labels: { b: '2', a: '1' }, managedFields },
          spec: { groups: ['g'], nonResourceAttributes: {} },
        }),
      ),
    ).toEqual([
      'metadata: Invalid value: {"labels":{"a":"1","b":"2"},"managedFields":[{"manager":"m","operation":"Update"}]}: must be empty',
    ]);
  });

  it('keeps a local review in its namespace', () => {
    expect(
      texts(
        validateLocalSubjectAccessReview({
          metadata: { namespace: 'ns' },
          spec: { user: 'u', resourceAttributes: { namespace: 'other' }, nonResourceAttributes: {} },
        }),
      ),
    ).toEqual([
      'spec: Invalid value: {"Path":"","Verb":""}: exactly one of nonResourceAttributes or resourceAttributes must be specified',
      'spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
      'spec.nonResourceAttributes: Invalid value: {"Path":"","Verb":""}: disallowed on this kind of request',
    ]);
  });

  it('checks the selectors are raw or requirements', () => {
    const errors = validateSubjectAccessReview({
      spec: {
        user: 'u',
        resourceAttributes: { fieldSelector: {}, labelSelector: { rawSelector: 'a', requirements: [{}] } },
      },
    });
    expect(texts(errors)).toEqual([
      'spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required',
      'spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "a": may not specified at the same time as requirements',
    ]);
    expect(reviewInvalid(errors).status.message).toMatch(/^\.authorization\.k8s\.io "" is invalid: \[/);
    expect(reviewInvalid(errors).status.details?.kind).toBeUndefined();
  });
});
