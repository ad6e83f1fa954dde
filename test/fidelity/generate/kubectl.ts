/**
 * What users see through kubectl 1.37, on both servers: `kubectl api-resources -o wide` of
 * every group watchmark serves whole, `kubectl explain --recursive` of every built-in kind it
 * serves, and `kubectl get -o wide` of each sample object. Discovery, the OpenAPI documents
 * and the Table cells are compared request by request elsewhere; these are the same answers as
 * the commands users type put them together.
 */

import { BUILTIN_GROUPS, BUILTIN_RESOURCES } from '../../../src/server/kinds/discovery.generated.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import type { FidelityCase } from '../types.js';
import { SAMPLES, sampleName } from './samples.js';
import { created } from './verbs.js';

/** `<plural>.<group>`, or the plural for the core group. */
function qualified(group: string, plural: string): string {
  return group ? `${plural}.${group}` : plural;
}

export function kubectlCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  const served = new Set(REGISTRY.map((k) => `${k.group}/${k.version}/${k.plural}`));
  served.add('apiextensions.k8s.io/v1/customresourcedefinitions');
  // The whole list, as a user types it: every resource of every group, in the reference's order.
  out.push({
    id: 'kubectl/api-resources/all',
    area: 'kubectl',
    namespace: false,
    steps: [{ kubectl: ['api-resources', '-o', 'wide'] }],
  });
  for (const { group } of BUILTIN_GROUPS) {
    const resources = BUILTIN_RESOURCES.filter((r) => r.group === group);
    // A group not served whole would differ by what is missing: registry.test.ts's NOT_YET lists it.
    if (!resources.every((r) => served.has(`${r.group}/${r.version}/${r.plural}`))) continue;
    out.push({
      id: `kubectl/api-resources/${group || 'core'}`,
      area: 'kubectl',
      namespace: false,
      steps: [{ kubectl: ['api-resources', '-o', 'wide', `--api-group=${group}`] }],
    });
  }
  for (const k of REGISTRY) {
    out.push({
      id: `kubectl/explain/${qualified(k.group, k.plural)}/${k.version}`,
      area: 'kubectl',
      namespace: false,
      steps: [
        {
          kubectl: [
            'explain',
            '--recursive',
            `--api-version=${k.group ? `${k.group}/${k.version}` : k.version}`,
            qualified(k.group, k.plural),
          ],
        },
      ],
    });
  }
  for (const s of SAMPLES) {
    const [group] = s.apiVersion.includes('/') ? s.apiVersion.split('/') : [''];
    const plural = s.collection.split('/').at(-1)!;
    const name = sampleName(s, 'kget');
    const target = s.namespaced
      ? ['-n', '$ns', `${qualified(group!, plural)}`]
      : [`${qualified(group!, plural)}`, name];
    out.push({
      id: `kubectl/get/${s.kind}/${s.apiVersion}`,
      area: 'kubectl',
      steps: [
        created(s, name),
        { kubectl: ['get', ...target] },
        { kubectl: ['get', '-o', 'wide', ...target] },
      ],
    });
  }
  return out;
}
