/**
 * Applying custom objects through the RESTMapper: kinds mapped over
 * discovery, a CRD and its objects in one batch (the objects wait for the
 * CRD), and the bounded wait's error.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyAll } from '../../../src/client/kubectl/apply.js';
import { waitForCustomKind } from '../../../src/client/kubectl/crd-wait.js';
import type { KubeObject } from '../../../src/protocol/events.js';
import { cleanupAfterEach, tempDirForFile } from '../../helpers/lifecycle.js';
import { startTestServerWithClient } from '../../helpers/server.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

const tempDir = tempDirForFile('watchmark-restmapper-apply-');
const cleanups = cleanupAfterEach();
let n = 0;
const serve = () => startTestServerWithClient(join(tempDir(), `kubeconfig-${n++}`), cleanups);

describe('apply with custom kinds', () => {
  it('applies a CRD, then its objects once it is served, in one batch', async () => {
    const { kube } = await serve();
    const { results, errors } = await applyAll(
      kube,
      [widgetCrd(), widget('a', { size: 3 }), widget('b', { size: 3 })],
      {
        namespace: 'demo',
      },
    );
    expect(errors).toEqual([]);
    expect(results.map((r) => `${r.ref} ${r.action}`)).toEqual([
      'customresourcedefinition.apiextensions.k8s.io/widgets.example.com created',
      'widget.example.com/a created',
      'widget.example.com/b created',
    ]);
    expect(results[1].type).toMatchObject({ group: 'example.com', version: 'v1', plural: 'widgets' });
    expect(results[1].namespace).toBe('demo');
    // A change is a JSON merge patch for a custom kind (no strategic merge metadata), as kubectl.
    const changed = widget('a', { size: 4 });
    const again = await applyAll(kube, [changed], { namespace: 'demo' });
    expect(again.results.map((r) => `${r.ref} ${r.action}`)).toEqual(['widget.example.com/a configured']);
    expect((await kube.resource('wg', 'demo').get('a')).spec).toMatchObject({ size: 4 });
  });

  it('waiting for a CRD that never comes ends with a clear error at the bound', async () => {
    const { kube } = await serve();
    const started = Date.now();
    const err = (await waitForCustomKind(kube, 'nothing.example.com', 'example.com/v1', 'Nothing', {
      timeoutMs: 300,
    }).catch((e: unknown) => e)) as Error;
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(err.message).toBe(
      'timed out after 0.3s waiting for customresourcedefinition "nothing.example.com" to be Established and serve kind "Nothing" in version "example.com/v1" (not found)',
    );
  });

  it('an object of a version the CRD does not serve fails alone, the others go on', async () => {
    const { kube } = await serve();
    const wrong = widget('x', { size: 1 }, { version: 'v9' });
    const right = widget('y');
    const { results, errors } = await applyAll(kube, [widgetCrd(), wrong, right] as KubeObject[], {
      namespace: 'demo',
      crdWaitMs: 300,
    });
    expect(results.map((r) => r.ref)).toEqual([
      'customresourcedefinition.apiextensions.k8s.io/widgets.example.com',
      'widget.example.com/y',
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'timed out after 0.3s waiting for customresourcedefinition "widgets.example.com" to be Established and serve kind "Widget" in version "example.com/v9" (Established, but no matches for kind "Widget" in version "example.com/v9")',
    ]);
  });
});
