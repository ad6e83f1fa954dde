/**
 * PodTemplate and ServiceAccount (core/v1): their defaults, validation, strategy and columns as
 * kube-apiserver v1.37 answers them (the fidelity area podtemplates-serviceaccounts compares the
 * same against the reference), and the kinds served end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import type { RunningServer } from '../../../../src/server/index.js';
import { fieldErrorText } from '../../../../src/server/kinds/validation.js';
import { call, ensureNamespace, startTestServer } from '../../../helpers/server.js';
import { ago, kind, MIN, names, row } from '../columns-fixture.js';
import { containerDefaults, defaulted, podSpecDefaults } from '../defaults-fixture.js';
import { check } from '../validation-fixture.js';

const podTemplate = (template: unknown): KubeObject => ({ metadata: { name: 'pt' }, template });
const containers = [{ name: 'c', image: 'nginx:1.27' }];

describe('PodTemplate', () => {
  it('defaults its template as a workload template: PodSpec defaults, metadata always there', () => {
    expect(
      defaulted('v1', 'PodTemplate', podTemplate({ spec: { containers, restartPolicy: 'Never' } })),
    ).toEqual(
      podTemplate({
        metadata: {},
        spec: {
          ...podSpecDefaults,
          restartPolicy: 'Never',
          containers: [{ ...containers[0], ...containerDefaults, imagePullPolicy: 'IfNotPresent' }],
        },
      }),
    );
    // No template at all: the Go struct is still there, defaulted, and validation finds no containers.
    expect(defaulted('v1', 'PodTemplate', { metadata: { name: 'pt' } })).toEqual(
      podTemplate({ metadata: {}, spec: podSpecDefaults }),
    );
    expect(check('v1', 'PodTemplate', { metadata: { name: 'pt' } })).toEqual([
      'template.spec.containers: Required value',
    ]);
  });

  it('validates as ValidatePodTemplate: every restart policy, template labels at template.labels', () => {
    expect(
      check('v1', 'PodTemplate', podTemplate({ spec: { containers, restartPolicy: 'OnFailure' } })),
    ).toEqual([]);
    expect(
      check(
        'v1',
        'PodTemplate',
        podTemplate({
          metadata: { labels: { app: '-web-' }, annotations: { '-note': 'x' } },
          spec: { containers, ephemeralContainers: [{ name: 'debug', image: 'busybox' }] },
        }),
      ).map((e) => e.split(': ').slice(0, 2).join(': ')),
    ).toEqual([
      'template.labels: Invalid value',
      'template.annotations: Invalid value',
      'template.spec.ephemeralContainers: Forbidden',
    ]);
    expect(
      check('v1', 'PodTemplate', { metadata: { name: 'Bad_Name' }, template: { spec: { containers } } })[0],
    ).toMatch(/^metadata\.name: Invalid value: "Bad_Name"/);
  });

  it('counts template changes in metadata.generation, and has no field selectors of its own', () => {
    const k = kind('v1', 'PodTemplate');
    expect(k.generationFields).toEqual(['template']);
    expect(Object.keys(k.fields)).toEqual([]);
    expect(k.shortNames).toEqual([]);
  });

  it('prints CONTAINERS IMAGES POD LABELS, without AGE', () => {
    const k = kind('v1', 'PodTemplate');
    expect(names(k)).toEqual(['CONTAINERS', 'IMAGES', 'POD LABELS']);
    expect(
      row(k, {
        template: {
          metadata: { labels: { b: '2', a: '1' } },
          spec: {
            containers: [
              { name: 'web', image: 'nginx' },
              { name: 'log', image: 'busybox' },
            ],
          },
        },
      }),
    ).toEqual(['web,log', 'nginx,busybox', 'a=1,b=2']);
    expect(row(k, { template: { spec: { containers } } })).toEqual(['c', 'nginx:1.27', '<none>']);
  });
});

describe('ServiceAccount', () => {
  it('keeps only the names of its secret references (the strategy’s cleanSecretReferences)', () => {
    expect(
      defaulted('v1', 'ServiceAccount', {
        metadata: { name: 'robot' },
        secrets: [
          { name: 'token-a', namespace: 'elsewhere', uid: 'u-1', kind: 'Secret' },
          { kind: 'Secret' },
        ],
        imagePullSecrets: [{ name: 'registry' }],
      }),
    ).toEqual({
      metadata: { name: 'robot' },
      secrets: [{ name: 'token-a' }, {}],
      imagePullSecrets: [{ name: 'registry' }],
    });
    expect(defaulted('v1', 'ServiceAccount', { metadata: { name: 'robot' } })).toEqual({
      metadata: { name: 'robot' },
    });
  });

  it('validates its metadata only, the name a DNS subdomain', () => {
    expect(check('v1', 'ServiceAccount', { metadata: { name: 'robot.example' } })).toEqual([]);
    const errors = kind('v1', 'ServiceAccount').validate?.({ metadata: { name: 'Bad_Name' } }) ?? [];
    expect(errors.map(fieldErrorText)[0]).toMatch(
      /^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
  });

  it('is `sa`, never bumps a generation, and prints NAME AGE', () => {
    const k = kind('v1', 'ServiceAccount');
    expect(k.shortNames).toEqual(['sa']);
    expect(k.generationFields).toEqual([]);
    expect(names(k)).toEqual(['AGE']);
    expect(row(k, { metadata: { creationTimestamp: ago(5 * MIN) } })).toEqual(['5m']);
  });
});

describe('served end to end', () => {
  let server: RunningServer;
  const NS = 'pt-sa';
  const base = `/api/v1/namespaces/${NS}`;

  beforeAll(async () => {
    server = await startTestServer();
    await ensureNamespace(server, NS);
  });

  afterAll(async () => {
    await server.close();
  });

  it('lists both kinds in /api/v1 discovery', async () => {
    const { body } = await call(server, 'GET', '/api/v1');
    const entry = (name: string) => body.resources.find((r: { name: string }) => r.name === name);
    expect(entry('podtemplates')).toMatchObject({
      kind: 'PodTemplate',
      namespaced: true,
      singularName: 'podtemplate',
    });
    expect(entry('serviceaccounts')).toMatchObject({
      kind: 'ServiceAccount',
      namespaced: true,
      shortNames: ['sa'],
    });
    expect(entry('podtemplates').verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
  });

  it('creates a PodTemplate at generation 1 and bumps it on a template change only', async () => {
    const created = await call(server, 'POST', `${base}/podtemplates`, {
      body: { metadata: { name: 'pt' }, template: { spec: { containers } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBe(1);
    expect(created.body.template.spec.restartPolicy).toBe('Always');
    const patch = (body: unknown) =>
      call(server, 'PATCH', `${base}/podtemplates/pt`, {
        body,
        headers: { 'content-type': 'application/merge-patch+json' },
      });
    expect((await patch({ metadata: { labels: { a: 'b' } } })).body.metadata.generation).toBe(1);
    expect((await patch({ template: { spec: { activeDeadlineSeconds: 5 } } })).body.metadata.generation).toBe(
      2,
    );
    const invalid = await patch({ template: { spec: { containers: null } } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toBe(
      'PodTemplate "pt" is invalid: template.spec.containers: Required value',
    );
    const list = await call(server, 'GET', `${base}/podtemplates?fieldSelector=metadata.name%3Dpt`);
    expect(list.body.kind).toBe('PodTemplateList');
    expect(list.body.items.map((i: KubeObject) => i.metadata?.name)).toEqual(['pt']);
    expect((await call(server, 'DELETE', `${base}/podtemplates/pt`)).status).toBe(200);
  });

  it('creates, cleans and deletes a ServiceAccount', async () => {
    const created = await call(server, 'POST', `${base}/serviceaccounts`, {
      body: { metadata: { name: 'robot' }, secrets: [{ name: 's', namespace: 'x' }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.secrets).toEqual([{ name: 's' }]);
    expect(created.body.metadata.generation).toBeUndefined();
    const table = await call(server, 'GET', `${base}/serviceaccounts`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Age']);
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['robot']);
    expect((await call(server, 'DELETE', `${base}/serviceaccounts/robot`)).status).toBe(200);
    expect((await call(server, 'GET', `${base}/serviceaccounts/robot`)).status).toBe(404);
  });
});
