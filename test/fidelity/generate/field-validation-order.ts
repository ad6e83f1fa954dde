/**
 * The order of strict errors when unknown and repeated keys mix (field-validation.ts covers each
 * alone): sigs.k8s.io/json reports each as it meets it while decoding a body in document order
 * (an unknown key where it stands, a repeated key at its second occurrence), so a typed body's
 * errors interleave; a patch's own repeated keys come before the patched object's unknown
 * fields, a custom resource's repeated keys before what pruning dropped, and a YAML body's
 * repeated keys (go-yaml's `already set in map`) before the JSON decoder's errors. Strict's error
 * message and Warn's `Warning` headers are both compared, at several depths, unknown before
 * repeated and after it, on the verbs that decode a body or a patch.
 */

import type { FidelityCase, RequestSpec, Step } from '../types.js';
import { API_VERSION, install, NS_COLLECTION } from './crds/fixture.js';
import { SAMPLES } from './samples.js';
import { created } from './verbs.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/$ns/deployments';
const NAME = 'obj';

/** A Deployment's JSON text around `spec` (without its braces) and extra top-level members. */
function deployment(spec: string, o: { before?: string; metadata?: string; after?: string } = {}): string {
  const template =
    '"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}';
  return [
    '{',
    o.before ?? '',
    '"apiVersion":"apps/v1","kind":"Deployment",',
    `"metadata":{"name":"${NAME}"${o.metadata ?? ''}},`,
    `"spec":{${spec.replace('$template', template).replace('$selector', '"selector":{"matchLabels":{"app":"web"}}')}}`,
    o.after ?? '',
    '}',
  ].join('');
}

/** Full objects (create, update, apply), each naming where its unknown and repeated keys stand. */
const BODIES: Record<string, string> = {
  // The e2e test's body: "[sig-api-machinery] FieldValidation should detect unknown and
  // duplicate fields of a typed object".
  'unknown-then-duplicate': deployment('"unknownField":"foo","replicas":2,"replicas":3,$selector,$template', {
    metadata: ',"labels":{"app":"nginx"}',
  }),
  'duplicate-then-unknown': deployment('"replicas":2,"replicas":3,"unknownField":"foo",$selector,$template'),
  'several-depths': deployment(
    '"replicas":2,"alpha":"x",$selector,"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","bogus":"y","image":"nginx:1.27","image":"nginx:1.27","name":"app"}]}},"replicas":3,"omega":1',
    {
      before: '"zeta":1,',
      metadata: ',"labels":{"app":"web","app":"web"},"bogusMeta":"x"',
      after: ',"last":true',
    },
  ),
  'repeated-struct': deployment('"alpha":1,"replicas":2,$selector,$template', {
    after: ',"beta":1,"spec":{"gamma":1,"replicas":3,"replicas":4},"kind":"Deployment"',
  }),
  'repeated-unknown': deployment(
    '"bogus":1,"replicas":2,"bogus":{"a":1,"a":2},"replicas":3,$selector,$template',
  ),
};

/** Patches (JSON merge, strategic merge, JSON patch) with their own repeated and unknown keys. */
const PATCHES: Record<string, { merge: string; json: string }> = {
  'unknown-then-duplicate': {
    merge: '{"spec":{"bogus":"x","replicas":4,"replicas":5}}',
    json: '[{"op":"add","path":"/spec/bogus","value":"x","extra":1,"op":"add"}]',
  },
  'duplicate-then-unknown': {
    merge:
      '{"zeta":1,"spec":{"replicas":4,"replicas":5,"alpha":"x"},"metadata":{"labels":{"a":"1","a":"2"}}}',
    json: '[{"op":"add","op":"add","path":"/spec/alpha","value":"x"},{"extra":1,"op":"add","path":"/zeta","value":1}]',
  },
};

const JSON_TYPE = 'application/json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';

function request(
  method: string,
  path: string,
  contentType: string,
  directive: string,
  text: string,
): RequestSpec {
  const query: Record<string, string> = { fieldValidation: directive };
  if (contentType === APPLY) query.fieldManager = 'fc';
  return { method, path, query, headers: { 'content-type': contentType }, bodyText: text };
}

/** The field-validation cases about the order of unknown and duplicate field errors. */
export function fieldValidationOrderCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  const sample = SAMPLES.find((x) => x.kind === 'Deployment')!;
  const item = `${DEPLOYMENTS}/${NAME}`;
  const add = (id: string, steps: Step[]) =>
    out.push({ id: `field-validation/order/${id}`, area: 'field-validation', steps });
  for (const directive of ['Strict', 'Warn']) {
    for (const [where, text] of Object.entries(BODIES)) {
      add(`${where}/create/${directive}`, [
        { request: request('POST', DEPLOYMENTS, JSON_TYPE, directive, text) },
        { request: { path: item } },
      ]);
      add(`${where}/update/${directive}`, [
        created(sample, NAME),
        { request: request('PUT', item, JSON_TYPE, directive, text) },
        { request: { path: item } },
      ]);
      add(`${where}/apply/${directive}`, [
        { request: request('PATCH', item, APPLY, directive, text) },
        { request: { path: item } },
      ]);
    }
    for (const [where, patch] of Object.entries(PATCHES)) {
      const patches: Array<[string, string, string]> = [
        ['strategic', STRATEGIC, patch.merge],
        // A merge or JSON patch refused by Strict quotes the whole patched object, uid and times
        // included: not comparable between two servers.
        ...(directive === 'Warn'
          ? ([
              ['merge', MERGE, patch.merge],
              ['json', JSON_PATCH, patch.json],
            ] as Array<[string, string, string]>)
          : []),
      ];
      for (const [verb, type, text] of patches) {
        add(`${where}/${verb}/${directive}`, [
          created(sample, NAME),
          { request: request('PATCH', item, type, directive, text) },
          { request: { path: item } },
        ]);
      }
    }
    // A YAML body: the YAML to JSON conversion's own strict check of repeated keys, first.
    const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${NAME}\nspec:\n  bogus: x\n  replicas: 2\n  replicas: 3\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n`;
    add(`yaml/create/${directive}`, [
      { request: request('POST', DEPLOYMENTS, 'application/yaml', directive, yaml) },
      { request: { path: item } },
    ]);
    add(`yaml/update/${directive}`, [
      created(sample, NAME),
      {
        request: request('PUT', item, 'application/yaml', directive, yaml),
      },
      { request: { path: item } },
    ]);
    add(`custom-resource/yaml/${directive}`, [
      ...install(),
      {
        request: request(
          'POST',
          NS_COLLECTION,
          'application/yaml',
          directive,
          `apiVersion: ${API_VERSION}\nkind: Widget\nmetadata:\n  name: w1\nzeta: 1\nspec:\n  junk: 1\n  size: 1\n  size: 2\nspec:\n  size: 3\n`,
        ),
      },
    ]);
    // A custom resource: the JSON decoder's repeated keys, then what pruning dropped.
    add(`custom-resource/create/${directive}`, [
      ...install(),
      {
        request: request(
          'POST',
          NS_COLLECTION,
          JSON_TYPE,
          directive,
          `{"zeta":1,"apiVersion":"${API_VERSION}","kind":"Widget","metadata":{"name":"w1"},"spec":{"junk":1,"size":1,"size":2}}`,
        ),
      },
    ]);
  }
  return out;
}
