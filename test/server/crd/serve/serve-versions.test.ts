import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../../src/server/index.js';
import { installCrd } from '../../../helpers/crds.js';
import { call, startTestServer, watch } from '../../../helpers/server.js';
import { widget as makeWidget, widgetCrd } from '../../../helpers/widget.js';
import { WIDGETS, widget } from './serve-fixture.js';

let server: RunningServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('several versions', () => {
  const twoVersions = (strategy: 'None' | 'Webhook') => {
    const crd = widgetCrd();
    const v1 = crd.spec.versions[0];
    crd.spec.versions = [{ ...structuredClone(v1), name: 'v1beta1', storage: false }, v1];
    if (strategy === 'Webhook') {
      crd.spec.conversion = {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { service: { namespace: 'default', name: 'convert', path: '/convert' } },
        },
      };
    }
    return crd;
  };

  it('serves each version with strategy None: apiVersion rewritten, objects kept in the storage version', async () => {
    await installCrd(server, twoVersions('None'));
    const old = '/apis/example.com/v1beta1/namespaces/default/widgets';
    const created = await call(server, 'POST', old, {
      body: makeWidget('a', { size: 1 }, { version: 'v1beta1' }),
    });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('example.com/v1beta1');
    expect((await call(server, 'GET', `${WIDGETS}/a`)).body.apiVersion).toBe('example.com/v1');
    expect((await call(server, 'GET', `${old}/a`)).body.apiVersion).toBe('example.com/v1beta1');
    const stored = await server.store.get('/example.com/widgets/default/a');
    expect(JSON.parse(stored!.value).apiVersion).toBe('example.com/v1');
    const w = await watch(server, `${old}?watch=1&resourceVersion=${created.body.metadata.resourceVersion}`);
    await call(server, 'PATCH', `${WIDGETS}/a`, {
      body: { spec: { size: 4 } },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    const modified = await w.until((e) => e.type === 'MODIFIED');
    expect((modified.object as any).apiVersion).toBe('example.com/v1beta1');
    expect((modified.object as any).spec.size).toBe(4);
    w.close();
  });

  it('with a Webhook strategy, serves the storage version and answers other versions with a clear error', async () => {
    await installCrd(server, twoVersions('Webhook'));
    expect((await call(server, 'POST', WIDGETS, { body: widget('a') })).status).toBe(201);
    const other = await call(server, 'GET', '/apis/example.com/v1beta1/namespaces/default/widgets/a');
    expect(other.status).toBe(500);
    expect(other.body.reason).toBe('InternalError');
    expect(other.body.message).toBe(
      'Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: watchmark does not call conversion webhooks; use the storage version example.com/v1',
    );
  });
});
