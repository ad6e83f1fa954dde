/**
 * A built-in object's resource.Quantity is stored and answered in the text kube-apiserver's Go
 * types write back (k8s.io/apimachinery/pkg/api/resource/quantity.go `ParseQuantity`, then
 * `MarshalJSON`/`String`): `cpu: "0.5"` reads back `"500m"`. The unit tables are upstream's
 * (quantity_test.go, v1.33), ported as data; the HTTP tests run every write path, protobuf and
 * kubectl; a custom resource keeps what it was sent (it is unstructured JSON).
 */
import { describe, expect, it } from 'vitest';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from '../kubectl/fixture.js';

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('quantities through kubectl', () => {
  const env = useKubectlServer(kubectls[0], 'quantities');

  it('kubectl run --overrides with a request of 0.5 CPU reads back 500m', async () => {
    const overrides = {
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '0.5', memory: '1024Mi' } } },
        ],
      },
    };
    const run = await env.kubectl.run([
      'run',
      'web',
      '--image=nginx:1.27',
      `--overrides=${JSON.stringify(overrides)}`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const get = await env.kubectl.run([
      'get',
      'pod',
      'web',
      '-o',
      'jsonpath={.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.requests.memory}',
    ]);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toBe('500m 1Gi');
  });
});
