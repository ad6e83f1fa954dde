/**
 * How a write body is decoded, per sample kind (the clean ones, apply.ts):
 * a YAML body, JSON with a charset, a body of another kind, group, version,
 * without kind or apiVersion, with another namespace or name than the path,
 * a body type the server does not read, and the protobuf answer to
 * `Accept`. The hand-written cases (broken bodies, Accept lists) are in
 * cases/decoding.yaml.
 */

import { stringify } from 'yaml';
import type { FidelityCase, Step } from '../types.js';
import { cleanSamples } from './apply.js';
import { sampleName } from './samples.js';
import { created, withValue } from './verbs.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export function decodingCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  for (const s of cleanSamples()) {
    const name = sampleName(s, 'obj');
    const item = `${s.collection}/${name}`;
    const body = s.object(name);
    const add = (id: string, steps: Step[]) =>
      out.push({ id: `decoding/${s.label ?? s.kind}/${id}`, area: 'decoding', steps });
    const post = (object: unknown, headers: Record<string, string> = {}): Step => ({
      request: { method: 'POST', path: s.collection, headers, body: object },
    });
    const postText = (text: string, contentType: string): Step => ({
      request: {
        method: 'POST',
        path: s.collection,
        headers: { 'content-type': contentType },
        bodyText: text,
      },
    });
    const get: Step = { request: { path: item } };

    add('yaml-create', [postText(stringify(body), 'application/yaml'), get]);
    add('yaml-update', [
      created(s, name),
      {
        request: {
          method: 'PUT',
          path: item,
          headers: { 'content-type': 'application/yaml' },
          bodyText: stringify(withValue(body, s.change.path, s.change.value)),
        },
      },
    ]);
    add('json-charset', [postText(JSON.stringify(body), 'application/json; charset=utf-8'), get]);
    add('no-content-type', [
      { request: { method: 'POST', path: s.collection, bodyText: JSON.stringify(body) } },
    ]);
    add('text-plain', [postText(JSON.stringify(body), 'text/plain')]);
    add('garbage-protobuf', [postText('k8s\u0000garbage', PROTOBUF)]);
    add('wrong-kind', [post(withValue(body, ['kind'], 'Secret'))]);
    add('unknown-kind', [post(withValue(body, ['kind'], 'Gadget'))]);
    add('wrong-version', [post(withValue(body, ['apiVersion'], s.apiVersion.replace(/v1$/, 'v2')))]);
    add('wrong-group', [post(withValue(body, ['apiVersion'], 'example.com/v1'))]);
    add('no-kind', [post(withValue(body, ['kind'], undefined))]);
    add('no-api-version', [post(withValue(body, ['apiVersion'], undefined))]);
    add('no-type-meta', [post(withValue(withValue(body, ['kind'], undefined), ['apiVersion'], undefined))]);
    add('update-wrong-name', [
      created(s, name),
      { request: { method: 'PUT', path: item, body: withValue(body, ['metadata', 'name'], `${name}-b`) } },
    ]);
    add('update-no-name', [
      created(s, name),
      { request: { method: 'PUT', path: item, body: withValue(body, ['metadata', 'name'], undefined) } },
    ]);
    add('update-wrong-kind', [
      created(s, name),
      { request: { method: 'PUT', path: item, body: withValue(body, ['kind'], 'Gadget') } },
    ]);
    if (s.namespaced) {
      add('namespace-mismatch', [post(withValue(body, ['metadata', 'namespace'], 'elsewhere'))]);
      add('namespace-same', [post(withValue(body, ['metadata', 'namespace'], '$ns'))]);
    }
    add('accept-protobuf', [created(s, name), { request: { path: item, headers: { accept: PROTOBUF } } }]);
    add('accept-protobuf-list', [
      created(s, name),
      // A cluster-wide list holds other cases' objects too, in an order that varies: select ours.
      {
        request: {
          path: s.collection,
          headers: { accept: PROTOBUF },
          ...(s.namespaced ? {} : { query: { fieldSelector: `metadata.name=${name}` } }),
        },
      },
    ]);
  }
  return out;
}
