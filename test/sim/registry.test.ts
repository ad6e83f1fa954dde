/**
 * The simulated registry (issue #10, item 5): common public images resolve,
 * a typo of a tag or an image fails with the kubelet's real events and
 * waiting reasons, retried with back-off; the registry is extendable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageRegistry, parseImageReference, parseImagesFile } from '../../src/sim/kubelet/registry.js';
import { BUILT_IN_IMAGES } from '../../src/sim/kubelet/registry-data.js';
import { eventually } from '../helpers/wait.js';
import { type Cluster, deployment, rolledOut, startCluster } from './harness.js';

describe('ImageRegistry', () => {
  const registry = ImageRegistry.builtIn();

  it('resolves common public images and tags', () => {
    for (const image of [
      'nginx',
      'nginx:latest',
      'nginx:1.27',
      'nginx:1.27.3-alpine',
      'docker.io/library/nginx:1.28',
      'index.docker.io/library/nginx:1.29',
      'library/busybox:1.36',
      'busybox',
      'redis:7.4-alpine',
      'postgres:16',
      'python:3.12-slim',
      'node:20-alpine',
      'registry.k8s.io/pause:3.10',
      `nginx@sha256:${'0'.repeat(64)}`,
      `nginx:1.27@sha256:${'a'.repeat(64)}`,
    ]) {
      expect(registry.resolve(image), image).toEqual({ ok: true });
    }
  });

  it('fails an unknown tag of a known image with containerd NotFound', () => {
    expect(registry.resolve('nginx:does-not-exist')).toEqual({
      ok: false,
      reason: 'ErrImagePull',
      error:
        'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:does-not-exist": ' +
        'failed to resolve reference "docker.io/library/nginx:does-not-exist": docker.io/library/nginx:does-not-exist: not found',
    });
    expect(registry.resolve('registry.k8s.io/pause:latest')).toMatchObject({
      ok: false,
      reason: 'ErrImagePull',
    });
  });

  it("fails an unknown Docker Hub image with Docker Hub's pull access denied", () => {
    const result = registry.resolve('ngnix:1.27');
    expect(result).toMatchObject({ ok: false, reason: 'ErrImagePull' });
    expect(!result.ok && result.error).toBe(
      'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ngnix:1.27": ' +
        'failed to resolve reference "docker.io/library/ngnix:1.27": pull access denied, repository does not exist ' +
        'or may require authorization: server message: insufficient_scope: authorization failed',
    );
    expect(registry.resolve('ghcr.io/acme/shop:v1')).toMatchObject({ ok: false, reason: 'ErrImagePull' });
  });

  it('rejects what is not a reference as InvalidImageName', () => {
    expect(registry.resolve('Nginx:1.27')).toEqual({
      ok: false,
      reason: 'InvalidImageName',
      error:
        'Failed to apply default image tag "Nginx:1.27": couldn\'t parse image name "Nginx:1.27": ' +
        'invalid reference format: repository name (library/Nginx) must be lowercase',
    });
    for (const bad of ['nginx:', 'nginx@sha256:abc', ':1.27', 'nginx:1.27 ', 'a//b'])
      expect(registry.resolve(bad), bad).toMatchObject({ ok: false, reason: 'InvalidImageName' });
  });

  it('parses references like the kubelet', () => {
    expect(parseImageReference('nginx')).toEqual({
      repository: 'docker.io/library/nginx',
      tag: 'latest',
      normalized: 'docker.io/library/nginx:latest',
      digest: undefined,
    });
    expect(parseImageReference('localhost:5000/team/app:v1')).toMatchObject({
      repository: 'localhost:5000/team/app',
      tag: 'v1',
    });
  });

  it('every built-in entry is a valid reference', () => {
    for (const [repository, tags] of Object.entries(BUILT_IN_IMAGES)) {
      for (const tag of tags) expect(parseImageReference(`${repository}:${tag}`)).not.toHaveProperty('error');
    }
  });

  it('takes more images from a YAML or JSON file: REPO:TAG, REPO (latest) and REPO:* (any tag)', async () => {
    const more = ImageRegistry.builtIn();
    const yaml = '# our images\n- ghcr.io/acme/shop:v1\n- acme/worker\n- registry.acme.internal:5000/api:*\n';
    expect(await parseImagesFile(yaml, 'images.yaml', more)).toBe(3);
    expect(more.resolve('ghcr.io/acme/shop:v1')).toEqual({ ok: true });
    expect(more.resolve('ghcr.io/acme/shop:v2')).toMatchObject({ ok: false, reason: 'ErrImagePull' });
    expect(more.resolve('acme/worker')).toEqual({ ok: true });
    expect(more.resolve('registry.acme.internal:5000/api:anything-1.2')).toEqual({ ok: true });
    expect(more.resolve('nginx:1.27')).toEqual({ ok: true });
    expect(await parseImagesFile('{"images": ["acme/cron:2"]}', 'images.json', more)).toBe(1);
    expect(more.resolve('acme/cron:2')).toEqual({ ok: true });

    await expect(parseImagesFile('- nginx:1.27\n- Acme/App:1\n', 'f.yaml', more)).rejects.toThrow(
      'f.yaml: entry 2: "Acme/App:1": invalid reference format: repository name (Acme/App) must be lowercase',
    );
    await expect(parseImagesFile('images: nginx\n', 'f.yaml', more)).rejects.toThrow(
      'f.yaml: expected a list of image references',
    );
    await expect(parseImagesFile('- [1\n', 'f.yaml', more)).rejects.toThrow(/^f\.yaml: /);
    await expect(parseImagesFile('- 3\n', 'f.yaml', more)).rejects.toThrow(
      'f.yaml: entry 1: expected a string',
    );
  });
});

describe('the simulated kubelet pulls only what the registry has', () => {
  let c: Cluster;
  beforeAll(async () => {
    const registry = ImageRegistry.builtIn();
    registry.add('ghcr.io/acme/shop:v2');
    c = await startCluster({ nodes: 2, registry });
  });
  afterAll(() => c?.close());

  const podOf = (app: string) =>
    eventually(async () => {
      const list = await c.kube.resource('pods', c.namespace).list({ labelSelector: `app=${app}` });
      return list.items[0] as any;
    }, `a pod of ${app}`);
  const eventsOf = async (pod: string) =>
    (
      await c.kube.resource('events', c.namespace).list({ fieldSelector: `involvedObject.name=${pod}` })
    ).items.map((e: any) => e);

  it('nginx:does-not-exist: Failed/ErrImagePull, then BackOff/ImagePullBackOff, retried with back-off', async () => {
    await c.kube
      .resource('deployments', c.namespace)
      .create(deployment('typo', 1, { image: 'nginx:does-not-exist' }));
    const pod = await podOf('typo');
    const name = pod.metadata.name;
    const notFound =
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:does-not-exist": ' +
      'failed to resolve reference "docker.io/library/nginx:does-not-exist": docker.io/library/nginx:does-not-exist: not found';
    // Retried: the kubelet pulls again after each back-off, so Pulling and BackOff repeat.
    const evs = await eventually(
      async () => {
        const e = await eventsOf(name);
        const backOff = e.find((x: any) => x.reason === 'BackOff');
        return backOff && backOff.count >= 2 && e;
      },
      'a repeated BackOff',
      20_000,
    );
    const messages = evs.map((e: any) => `${e.type} ${e.reason} ${e.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Normal Pulling Pulling image "nginx:does-not-exist"',
        `Warning Failed Failed to pull image "nginx:does-not-exist": ${notFound}`,
        'Warning Failed Error: ErrImagePull',
        'Normal BackOff Back-off pulling image "nginx:does-not-exist"',
        'Warning Failed Error: ImagePullBackOff',
      ]),
    );
    expect(evs.find((e: any) => e.reason === 'Pulling').count).toBeGreaterThanOrEqual(2);
    const pullEvents = evs.filter((e: any) => ['Pulling', 'Failed', 'BackOff'].includes(e.reason));
    expect(pullEvents.every((e: any) => e.source?.component === 'kubelet')).toBe(true);
    const waiting = await eventually(async () => {
      const p = (await c.kube.resource('pods', c.namespace).get(name)) as any;
      const w = p.status.containerStatuses?.[0]?.state?.waiting;
      return w?.reason === 'ImagePullBackOff' && w;
    }, 'ImagePullBackOff in the container status');
    expect(waiting.message).toBe(`Back-off pulling image "nginx:does-not-exist": ErrImagePull: ${notFound}`);
    await c.kube.resource('deployments', c.namespace).delete('typo');
  });

  it('an invalid name: InspectFailed and InvalidImageName, never a pull', async () => {
    await c.kube.resource('deployments', c.namespace).create(deployment('upper', 1, { image: 'Nginx:1.27' }));
    const name = (await podOf('upper')).metadata.name;
    // The container waits as ContainerCreating first, as on a real node; then the kubelet inspects the name.
    const waiting = await eventually(async () => {
      const p = (await c.kube.resource('pods', c.namespace).get(name)) as any;
      const w = p.status.containerStatuses?.[0]?.state?.waiting;
      return w && w.reason !== 'ContainerCreating' && w;
    }, 'a waiting state other than ContainerCreating');
    expect(waiting.reason).toBe('InvalidImageName');
    const evs = await eventually(async () => {
      const e = await eventsOf(name);
      return e.some((x: any) => x.message === 'Error: InvalidImageName') && e;
    }, 'the InvalidImageName events');
    expect(evs.map((e: any) => `${e.type} ${e.reason} ${e.message}`)).toContain(
      'Warning InspectFailed Failed to apply default image tag "Nginx:1.27": couldn\'t parse image name "Nginx:1.27": invalid reference format: repository name (library/Nginx) must be lowercase',
    );
    expect(evs.some((e: any) => e.reason === 'Pulling')).toBe(false);
    await c.kube.resource('deployments', c.namespace).delete('upper');
  });

  it('an image added to the registry pulls and rolls out', async () => {
    await c.kube
      .resource('deployments', c.namespace)
      .create(deployment('shop', 2, { image: 'ghcr.io/acme/shop:v2' }));
    await rolledOut(c.kube, c.namespace, 'shop');
    const pod = await podOf('shop');
    expect(pod.status.containerStatuses[0].image).toBe('ghcr.io/acme/shop:v2');
  });
});
