/**
 * The pure rules of admission: which rules match a request (rules.go `Matcher`), selectors,
 * and the dispatcher's dry-run and failure-policy decisions, on hooks made in the test.
 */
import { describe, expect, it } from 'vitest';
import { everythingSelector, labelSelectorFromObject } from '../../../src/protocol/labels.js';
import { StatusError } from '../../../src/protocol/status.js';
import type { AdmissionAttributes } from '../../../src/server/admission/attributes.js';
import { dispatchMutating, dispatchValidating, type Hook } from '../../../src/server/admission/dispatch.js';
import { CallingWebhookError } from '../../../src/server/admission/errors.js';
import {
  namespaceSelectorMatches,
  objectSelectorMatches,
  ruleMatches,
} from '../../../src/server/admission/matching.js';
import type { WebhookRule } from '../../../src/server/admission/webhooks.js';

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespaced: true,
    subresource: '',
    name: 'p',
    namespace: 'ns',
    operation: 'CREATE',
    userInfo: { username: 'u' },
    object: { metadata: { name: 'p', labels: { app: 'a' } } },
    oldObject: undefined,
    dryRun: false,
    options: undefined,
    ...over,
  };
}

const rule = (resources: string[], over: Partial<WebhookRule> = {}): WebhookRule => ({
  operations: ['*'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
  scope: '*',
  ...over,
});

describe('rules (predicates/rules/rules.go)', () => {
  it.each([
    [['pods'], '', true],
    [['pods'], 'status', false],
    [['pods/status'], 'status', true],
    [['pods/status'], '', false],
    [['pods/*'], 'status', true],
    // rules.go: `sub == "*"` matches the main resource too.
    [['pods/*'], '', true],
    [['*'], '', true],
    [['*'], 'status', false],
    [['*/status'], 'status', true],
    [['*/*'], 'status', true],
    [['*/*'], '', true],
    [['configmaps'], '', false],
  ])('%j with subresource %j: %s', (resources, subresource, expected) => {
    expect(ruleMatches(rule(resources), attrs({ subresource }))).toBe(expected);
  });

  it('operations, groups and versions are exact or *', () => {
    expect(ruleMatches(rule(['pods'], { operations: ['UPDATE'] }), attrs())).toBe(false);
    expect(ruleMatches(rule(['pods'], { apiGroups: ['apps'] }), attrs())).toBe(false);
    expect(ruleMatches(rule(['pods'], { apiGroups: ['*'], apiVersions: ['*'] }), attrs())).toBe(true);
  });

  it('scope: Namespaced never matches a Namespace; Cluster matches it and cluster-scoped kinds', () => {
    const namespace = attrs({
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespaced: false,
      namespace: 'ns',
    });
    expect(ruleMatches(rule(['namespaces'], { scope: 'Namespaced' }), namespace)).toBe(false);
    expect(ruleMatches(rule(['namespaces'], { scope: 'Cluster' }), namespace)).toBe(true);
    expect(ruleMatches(rule(['pods'], { scope: 'Cluster' }), attrs())).toBe(false);
    expect(ruleMatches(rule(['pods'], { scope: 'Namespaced' }), attrs())).toBe(true);
  });
});

describe('selectors', () => {
  const sel = (o: object) => labelSelectorFromObject(o, { nilSelectsNothing: false });

  it('objectSelector: the new or the old labels', () => {
    const s = sel({ matchLabels: { app: 'b' } });
    expect(objectSelectorMatches(s, attrs())).toBe(false);
    expect(objectSelectorMatches(s, attrs({ oldObject: { metadata: { labels: { app: 'b' } } } }))).toBe(true);
    expect(objectSelectorMatches(everythingSelector, attrs({ object: undefined }))).toBe(true);
  });

  it('namespaceSelector: a cluster-scoped object matches without a look at any namespace', async () => {
    const s = sel({ matchLabels: { env: 'prod' } });
    const lookups: string[] = [];
    const labels = async (n: string) => {
      lookups.push(n);
      return { env: n === 'prodns' ? 'prod' : 'dev' };
    };
    const node = attrs({
      resource: { group: '', version: 'v1', resource: 'nodes' },
      namespaced: false,
      namespace: '',
    });
    expect(await namespaceSelectorMatches(s, node, labels)).toBe(true);
    expect(await namespaceSelectorMatches(s, attrs({ namespace: 'prodns' }), labels)).toBe(true);
    expect(await namespaceSelectorMatches(s, attrs({ namespace: 'devns' }), labels)).toBe(false);
    expect(lookups).toEqual(['prodns', 'devns']);
    // A Namespace's own create is judged by its own labels.
    const created = attrs({
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespaced: false,
      namespace: '',
      object: { metadata: { name: 'x', labels: { env: 'prod' } } },
    });
    expect(await namespaceSelectorMatches(s, created, labels)).toBe(true);
  });
});

describe('dispatch', () => {
  const hook = (over: Partial<Hook>): Hook => ({
    name: 'h.example.com',
    failurePolicy: 'Fail',
    sideEffects: 'None',
    matches: async (a) => ({ kind: a.kind, resource: a.resource }),
    call: async () => ({ allowed: true }),
    ...over,
  });
  const sinks = { warn: () => {}, log: () => {} };

  it('a dry run refuses a hook with side effects (400), whatever its failure policy', async () => {
    const some = hook({ sideEffects: 'Some', failurePolicy: 'Ignore' });
    const err = await dispatchValidating([some], attrs({ dryRun: true }), sinks).catch((e) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect(err.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'admission webhook "h.example.com" does not support dry run',
    });
    // Not a dry run: called as usual.
    await expect(dispatchValidating([some], attrs(), sinks)).resolves.toBeUndefined();
  });

  it('a hook without sideEffects fails a dry run as a call failure (failurePolicy decides)', async () => {
    const nil = hook({ sideEffects: undefined });
    const err = await dispatchValidating([nil], attrs({ dryRun: true }), sinks).catch((e) => e);
    expect(err.status.message).toBe(
      'Internal error occurred: failed calling webhook "h.example.com": Webhook SideEffects is nil',
    );
    await expect(
      dispatchValidating(
        [hook({ sideEffects: undefined, failurePolicy: 'Ignore' })],
        attrs({ dryRun: true }),
        sinks,
      ),
    ).resolves.toBeUndefined();
  });

  it('failurePolicy Ignore skips a failed call and logs it; the next mutating hook still runs', async () => {
    const logged: string[] = [];
    const failing = hook({
      failurePolicy: 'Ignore',
      call: async () => {
        throw new CallingWebhookError('h.example.com', 'boom');
      },
    });
    const patching = hook({
      name: 'p.example.com',
      call: async () => ({
        allowed: true,
        patch: [{ op: 'add', path: '/metadata/annotations', value: { a: 'b' } }],
      }),
    });
    const out = await dispatchMutating([failing, patching], attrs(), {
      warn: () => {},
      log: (m) => logged.push(m),
    });
    expect(out?.metadata?.annotations).toEqual({ a: 'b' });
    expect(logged).toEqual([
      'Failed calling webhook, failing open h.example.com: failed calling webhook "h.example.com": boom',
    ]);
  });
});
