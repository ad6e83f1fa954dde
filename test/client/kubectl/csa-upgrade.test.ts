/**
 * kubectl's move from client-side to server-side apply: the managedFields
 * rewrite (client-go util/csaupgrade) and the requests `apply --server-side`
 * sends after applying an object client-side apply managed (kubectl apply.go:
 * keep the last-applied annotation under `kubectl-last-applied`, give the
 * client-side manager's fields to `kubectl` by a JSON patch that sets
 * resourceVersion, apply again). The requests are checked against a
 * recorder whose answers carry the managedFields kube-apiserver would.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import {
  fieldOwners,
  type ManagedFieldsEntry,
  unionFields,
  upgradeManagedFieldsPatch,
} from '../../../src/client/kubectl/csa-upgrade.js';
import {
  LAST_APPLIED_MANAGER,
  serverSideApplyObject,
} from '../../../src/client/kubectl/server-side-apply.js';
import { LAST_APPLIED_ANNOTATION } from '../../../src/client/kubectl/target.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { type Recorder, startRecorder } from './ssa-recorder.js';

const LA = `f:${LAST_APPLIED_ANNOTATION}`;
const csaEntry = (apiVersion = 'v1'): ManagedFieldsEntry => ({
  manager: 'kubectl-client-side-apply',
  operation: 'Update',
  apiVersion,
  time: '2026-12-04T00:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:data': { '.': {}, 'f:a': {}, 'f:b': {} },
    'f:metadata': { 'f:annotations': { '.': {}, [LA]: {} } },
  },
});
const ssaEntry: ManagedFieldsEntry = {
  manager: 'kubectl',
  operation: 'Apply',
  apiVersion: 'v1',
  time: '2026-12-04T00:01:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:a': {} } },
};
const controller: ManagedFieldsEntry = {
  manager: 'kube-controller-manager',
  operation: 'Update',
  apiVersion: 'v1',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:data': { 'f:c': {} } },
};
const withFields = (managedFields: ManagedFieldsEntry[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'demo', resourceVersion: '42', managedFields },
});

describe('csaupgrade', () => {
  it('finds the owners of a field: a leaf or a node marked "." owns it, a node with children only does not', () => {
    const entries = [csaEntry(), ssaEntry, controller];
    expect(fieldOwners(entries, 'Update', ['metadata', 'annotations', LAST_APPLIED_ANNOTATION])).toEqual([
      csaEntry(),
    ]);
    expect(fieldOwners(entries, 'Update', ['data']).map((e) => e.manager)).toEqual([
      'kubectl-client-side-apply',
    ]);
    expect(fieldOwners(entries, 'Apply', ['data', 'a']).map((e) => e.manager)).toEqual(['kubectl']);
    expect(fieldOwners(entries, 'Apply', ['data'])).toEqual([]);
  });

  it('unions field sets, "." first, then fields, keys, values and indexes', () => {
    expect(
      JSON.stringify(
        unionFields(
          { 'i:1': {}, 'f:b': { 'f:x': {} }, 'k:{"name":"a"}': {} },
          { 'v:"z"': {}, 'f:b': { '.': {}, 'f:y': {} }, 'f:a': {} },
        ),
      ),
    ).toBe('{"f:a":{},"f:b":{".":{},"f:x":{},"f:y":{}},"k:{\\"name\\":\\"a\\"}":{},"v:\\"z\\"":{},"i:1":{}}');
  });

  it("with no Apply entry yet, the client-side entry becomes kubectl's Apply entry", () => {
    const patch = upgradeManagedFieldsPatch(
      withFields([csaEntry(), controller]),
      ['kubectl-client-side-apply'],
      'kubectl',
    );
    expect(patch).toEqual([
      {
        op: 'replace',
        path: '/metadata/managedFields',
        value: [{ ...csaEntry(), manager: 'kubectl', operation: 'Apply' }, controller],
      },
      { op: 'replace', path: '/metadata/resourceVersion', value: '42' },
    ]);
  });

  it('with an Apply entry, the client-side fields of its apiVersion join it and every client-side entry goes', () => {
    const patch = upgradeManagedFieldsPatch(
      withFields([ssaEntry, csaEntry(), csaEntry('v1beta1'), controller]),
      ['kubectl-client-side-apply'],
      'kubectl',
    );
    expect(patch?.[0].value).toEqual([
      { ...ssaEntry, fieldsV1: unionFields(ssaEntry.fieldsV1 ?? {}, csaEntry().fieldsV1 ?? {}) },
      controller,
    ]);
  });

  it('nothing to move is no patch', () => {
    expect(
      upgradeManagedFieldsPatch(withFields([ssaEntry, controller]), ['kubectl-client-side-apply'], 'kubectl'),
    ).toBe(undefined);
    expect(upgradeManagedFieldsPatch(withFields([]), [], 'kubectl')).toBe(undefined);
  });
});

describe('apply --server-side on an object client-side apply managed', () => {
  const tempDir = tempDirForFile('watchmark-csa-upgrade-');
  let recorder: Recorder;
  let kube: KubeClient;
  /** The object as the recorder's "server" holds it. */
  let live: KubeObject;
  beforeAll(async () => {
    live = {
      ...withFields([ssaEntry, csaEntry()]),
      metadata: {
        ...withFields([]).metadata,
        annotations: { [LAST_APPLIED_ANNOTATION]: '{"data":{"a":"1","b":"2"}}\n' },
        managedFields: [ssaEntry, csaEntry()],
      },
      data: { a: '1', b: '2' },
    };
    recorder = await startRecorder((req) => {
      if (req.contentType === 'application/json-patch+json') {
        const ops = req.body as Array<{ path: string; value: unknown }>;
        live = structuredClone(live);
        live.metadata!.managedFields = ops[0].value;
        live.metadata!.resourceVersion = '43';
      } else if (req.query.fieldManager === LAST_APPLIED_MANAGER) {
        live = structuredClone(live);
        const entries = live.metadata!.managedFields as ManagedFieldsEntry[];
        entries.push({
          manager: LAST_APPLIED_MANAGER,
          operation: 'Apply',
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:annotations': { [LA]: {} } } },
        });
      }
      return { status: 200, body: live };
    });
    const kubeconfig = join(tempDir(), 'kubeconfig');
    await recorder.writeKubeconfig(kubeconfig);
    kube = await KubeClient.load({ kubeconfig, qps: 0 });
  });
  afterAll(async () => {
    await kube?.close();
    await recorder?.close();
  });

  it('keeps the annotation under kubectl-last-applied, moves ownership by a JSON patch, then applies again', async () => {
    const file = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } };
    const result = await serverSideApplyObject(kube, file, { namespace: 'demo' });
    expect(result.action).toBe('serverside-applied');
    expect(result.warning).toBeUndefined();
    const steps = recorder.requests.map((r) => `${r.method} ${r.contentType} ${r.query.fieldManager}`);
    expect(steps).toEqual([
      'PATCH application/apply-patch+yaml kubectl',
      `PATCH application/apply-patch+yaml ${LAST_APPLIED_MANAGER}`,
      'PATCH application/json-patch+json kubectl',
      'PATCH application/apply-patch+yaml kubectl',
    ]);
    expect(recorder.requests[1].body).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'settings',
        namespace: 'demo',
        annotations: { [LAST_APPLIED_ANNOTATION]: '{"data":{"a":"1","b":"2"}}\n' },
      },
    });
    const migration = recorder.requests[2].body as Array<{ op: string; path: string; value: any }>;
    expect(migration[1]).toEqual({ op: 'replace', path: '/metadata/resourceVersion', value: '42' });
    expect(migration[0].value.map((e: ManagedFieldsEntry) => `${e.manager} ${e.operation}`)).toEqual([
      'kubectl Apply',
      `${LAST_APPLIED_MANAGER} Apply`,
    ]);
    expect(migration[0].value[0].fieldsV1['f:data']).toEqual({ '.': {}, 'f:a': {}, 'f:b': {} });
    expect(recorder.requests[3].body).toEqual(recorder.requests[0].body);

    // Applied again: the annotation has an Apply owner and no client-side manager is left: one request.
    const sent = recorder.requests.length;
    await serverSideApplyObject(kube, file, { namespace: 'demo' });
    expect(recorder.requests.length).toBe(sent + 1);
  });
});
