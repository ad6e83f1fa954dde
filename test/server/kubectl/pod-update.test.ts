/**
 * A Pod's update rules as kubectl meets them (pkg/apis/core/validation/validation.go
 * `ValidatePodUpdate`): `kubectl set image` goes through, a patch of the node or of a
 * toleration is refused with kube-apiserver's message and kubectl's exit code 1. (A change to the
 * not-ready/unreachable tolerations DefaultTolerationSeconds adds would not be refused: the
 * plugin admits updates too and adds them back, so the old ones are still there.)
 */
import { describe, expect, it } from 'vitest';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from './fixture.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('pod updates through kubectl', () => {
  const env = useKubectlServer(kubectls[0], 'pods');

  it('allows set image and a toleration seconds change; refuses a new node or another toleration change', async () => {
    const run = await env.kubectl.run([
      'run',
      'web',
      '--image=nginx:1.27',
      '--overrides={"spec":{"tolerations":[{"key":"team","operator":"Equal","value":"a","effect":"NoSchedule"}]}}',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const set = await env.kubectl.run(['set', 'image', 'pod/web', 'web=nginx:1.28']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('pod/web image updated\n');

    const node = await env.kubectl.run(['patch', 'pod', 'web', '-p', '{"spec":{"nodeName":"node-9"}}']);
    expect(node.code).toBe(1);
    expect(node.stderr).toMatch(
      /^The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/,
    );

    const tol = await env.kubectl.run([
      'patch',
      'pod',
      'web',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/tolerations/0/value","value":"b"}]',
    ]);
    expect(tol.code).toBe(1);
    expect(tol.stderr).toContain(
      'The Pod "web" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
    // Only tolerationSeconds may change (`validateOnlyAddedTolerations`).
    const seconds = await env.kubectl.run([
      'patch',
      'pod',
      'web',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/tolerations/1/tolerationSeconds","value":30}]',
    ]);
    expect(seconds.code, seconds.stderr).toBe(0);

    // A JSON patch that cannot apply: kube-apiserver's generic 422 (patch.go `applyJSPatch`).
    const missing = await env.kubectl.run([
      'patch',
      'pod',
      'web',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/nope","value":1}]',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'The request is invalid: the server rejected our request due to an error in our request\n',
    );

    const got = await env.kubectl.run([
      'get',
      'pod',
      'web',
      '-o',
      'jsonpath={.spec.containers[0].image} {.spec.nodeName}',
    ]);
    expect(got.stdout).toBe('nginx:1.28 ');
  });
});
