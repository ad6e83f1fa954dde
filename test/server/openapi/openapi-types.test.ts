/**
 * The committed type table, descriptions and Table column docs (src/server/openapi/
 * openapi-types.generated.ts, openapi-descriptions.generated.ts, column-docs.generated.ts) are
 * what scripts/openapi-types.ts generates from the OpenAPI
 * v3 documents of Kubernetes' release (the Go module k8s.io/kubernetes): after adding a kind or
 * moving to another release, regenerate with
 *
 *     npx tsx scripts/openapi-types.ts
 *
 * Generating needs Go (`go mod download` fetches the module): without it the check skips loudly
 * on a developer machine and fails under CI=true (requireTool).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_COLUMN_DOCS,
  GENERATED_DESCRIPTIONS,
  GENERATED_TYPES,
  generatedSources,
  KUBERNETES_VERSION,
} from '../../../scripts/openapi-types.js';
import { requireTool } from '../../helpers/tools.js';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

function goFound(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    // Not installed (or not runnable): the gate below decides between skipping and failing.
    return false;
  }
}

const haveGo = requireTool('go (to read the Kubernetes OpenAPI documents)', goFound());

/** The first line where `actual` and `expected` part, for a failure message a person can act on. */
function firstDifference(actual: string, expected: string): string {
  const [a, e] = [actual.split('\n'), expected.split('\n')];
  const i = a.findIndex((line, n) => line !== e[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(e[at]?.slice(0, 200))}, generated ${JSON.stringify(a[at]?.slice(0, 200))}`;
}

describe.skipIf(!haveGo)('generated OpenAPI type table', () => {
  it(`is what Kubernetes ${KUBERNETES_VERSION}'s published OpenAPI gives (${GENERATED_TYPES}, ${GENERATED_DESCRIPTIONS}, ${GENERATED_COLUMN_DOCS})`, {
    timeout: 120_000,
  }, async () => {
    const sources = await generatedSources();
    for (const [path, text] of [
      [GENERATED_TYPES, sources.types],
      [GENERATED_DESCRIPTIONS, sources.descriptions],
      [GENERATED_COLUMN_DOCS, sources.columnDocs],
    ] as const) {
      const committed = readFileSync(join(REPO, path), 'utf8');
      if (text !== committed) {
        expect.fail(
          `${path} is out of date (${firstDifference(text, committed)}): run npx tsx scripts/openapi-types.ts`,
        );
      }
    }
  });
});
