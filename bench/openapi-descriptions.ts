/**
 * What shipping the upstream OpenAPI descriptions (for `kubectl explain`) costs: package bytes,
 * server import time, and the first `/openapi/v3` build, each against the same measure without
 * the descriptions in the same run. Runs on the compiled dist/ (as users run the server); every
 * timing is a fresh `node` process, interleaved, and the figures are medians.
 *
 *   npm run bench:openapi                  # builds dist/, writes bench/results/openapi-descriptions.json
 *   npm run bench:openapi -- --skip-build --runs 5
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = fileURLToPath(new URL('./results/openapi-descriptions.json', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 7;
const dist = (path: string) => pathToFileURL(`${ROOT}dist/${path}`).href;

if (!args.includes('--skip-build')) {
  process.stdout.write('building dist/ ...\n');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** Runs `code` (an ES module body printing one JSON line) in a fresh node; returns the parsed line. */
function child(code: string): Record<string, number> {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

// Import of the server entry point, alone and followed by the descriptions module.
const importServer = (withDescriptions: boolean) => `
const t0 = performance.now();
await import(${JSON.stringify(dist('server/index.js'))});
const t1 = performance.now();
${withDescriptions ? `await import(${JSON.stringify(dist('server/openapi/openapi-descriptions.generated.js'))});` : ''}
console.log(JSON.stringify({ ms: performance.now() - t0, serverMs: t1 - t0 }));`;

// Building every /openapi/v3 document, as the first request does, with or without descriptions.
const buildDocuments = (withDescriptions: boolean) => `
const { buildOpenApiV3 } = await import(${JSON.stringify(dist('server/openapi.js'))});
const { REGISTRY } = await import(${JSON.stringify(dist('server/kinds/served/registry.js'))});
const t0 = performance.now();
const descriptions = ${withDescriptions ? `(await import(${JSON.stringify(dist('server/openapi-descriptions.js'))})).loadApiDescriptions()` : 'undefined'};
const { documents } = buildOpenApiV3(REGISTRY, await descriptions);
const ms = performance.now() - t0;
let bytes = 0;
for (const d of documents.values()) bytes += d.body.length;
console.log(JSON.stringify({ ms, bytes, apps: documents.get('apis/apps/v1').body.length }));`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const samples: Record<string, Record<string, number>[]> = {};
const sample = (key: string, code: string) => {
  samples[key] ??= [];
  samples[key].push(child(code));
};
process.stdout.write(`${runs} interleaved runs of 4 measures in fresh node processes ...\n`);
for (let i = 0; i < runs; i++) {
  sample('importServer', importServer(false));
  sample('importServerAndDescriptions', importServer(true));
  sample('buildWithout', buildDocuments(false));
  sample('buildWith', buildDocuments(true));
}
const m = (key: string, field: string) => Number(median(samples[key].map((s) => s[field])).toFixed(1));

const module = `${ROOT}dist/server/openapi/openapi-descriptions.generated.js`;
const moduleBytes = statSync(module).size;
const packedBytes = gzipSync(readFileSync(module)).length;
const mapBytes = statSync(`${module}.map`).size + statSync(module.replace(/\.js$/, '.d.ts')).size;
const result = {
  machine: { cpus: cpus().length, loadavg1m: Number(loadavg()[0].toFixed(2)) },
  runs,
  package: {
    descriptionsModuleBytes: moduleBytes,
    descriptionsModuleGzipBytes: packedBytes,
    sourceMapAndTypesBytes: mapBytes,
  },
  importMs: {
    server: m('importServer', 'ms'),
    serverThenDescriptions: m('importServerAndDescriptions', 'ms'),
    ratio: Number((m('importServerAndDescriptions', 'ms') / m('importServer', 'ms')).toFixed(2)),
    note: 'the server never imports the descriptions at start-up; the second figure is what an eager import would cost',
  },
  firstOpenApiBuildMs: {
    withoutDescriptions: m('buildWithout', 'ms'),
    withDescriptions: m('buildWith', 'ms'),
    ratio: Number((m('buildWith', 'ms') / m('buildWithout', 'ms')).toFixed(2)),
  },
  documentBytes: {
    allWithout: m('buildWithout', 'bytes'),
    allWith: m('buildWith', 'bytes'),
    appsV1Without: m('buildWithout', 'apps'),
    appsV1With: m('buildWith', 'apps'),
  },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`wrote ${OUT.slice(ROOT.length)}\n`);
