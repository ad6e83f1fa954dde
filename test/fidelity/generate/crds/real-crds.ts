/** CRD cases (index.ts): The real CRDs and their examples. */

import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';
import type { Step } from '../../types.js';
import { type Add, CRDS, established, serving } from './fixture.js';

export function realCrdCases(add: Add): void {
  for (const real of REAL_CRDS) {
    const body = loadRealCrd(real.file);
    const name = `${real.plural}.${real.group}`;
    const steps: Step[] = [
      { request: { method: 'POST', path: CRDS, body }, pick: ['metadata.name', 'spec', 'status'] },
      established(name),
      ...serving(body),
      { request: { path: `${CRDS}/${name}` }, pick: ['status.acceptedNames', 'status.storedVersions'] },
    ];
    for (const file of real.examples) {
      for (const object of loadExampleObjects(file)) {
        const apiVersion = String(object.apiVersion);
        const namespaced = (body.spec as { scope?: string }).scope === 'Namespaced';
        const metadata = { ...(object.metadata as Record<string, unknown>) };
        if (namespaced) metadata.namespace = '$ns';
        else delete metadata.namespace;
        steps.push({
          request: {
            method: 'POST',
            path: `/apis/${apiVersion}/${namespaced ? 'namespaces/$ns/' : ''}${real.plural}`,
            body: { ...object, metadata },
          },
        });
      }
    }
    add(`real/${real.plural}.${real.group}`, steps);
  }
}
