/**
 * bench:crd: what custom resources cost, each figure against a baseline from the same run.
 *
 * 1. Definition to first object: from POSTing a CustomResourceDefinition until the definition
 *    is Established (seen on a watch, as `kubectl wait` sees it), a first object is created
 *    (201) and both discovery forms list the new resource. Baseline: one ConfigMap create
 *    (the round trip every step above contains). Target (issue 22): <= 50 ms.
 * 2. Write cost of a custom object with a large real schema: cert-manager's Certificate (its
 *    definition from support/fixtures/crds, plus three CEL rules on spec) against a
 *    ConfigMap whose JSON is the same size, as process CPU per create, in interleaved rounds
 *    on one server. Target: <= 1.5x. A third side, the same content served by a definition
 *    with no schema, splits the ratio into what the object's shape costs and what the schema
 *    and its rules add. Bodies are serialized before timing; only the name is filled in.
 * 3. Installing every real definition in support/fixtures/crds, one POST after another as
 *    `kubectl apply -f <folder>` sends them, until all are Established. Baseline: as many
 *    ConfigMap creates carrying the same bytes. Target: <= 500 ms.
 *
 *   npm run bench:crd              # full: writes bench/results/crd.json
 *   npm run bench:crd -- --quick   # fewer rounds, prints only
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { type RunningServer, startServer } from '../src/server/index.js';
import { REAL_CRDS } from '../support/fixtures/crds/index.js';
import { httpExpect } from '../support/http.js';
import { established, watchCrds } from './lib/crd-watch.js';
import { round, table } from './lib/report.js';

const quick = process.argv.includes('--quick');
const OUT = fileURLToPath(new URL('./results/crd.json', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../support/fixtures/crds/', import.meta.url));
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NS = 'bench';
const TARGETS = { firstObjectMs: 50, writeRatio: 1.5, installAllMs: 500 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * The benchmark's own Widget, not the tests' (test/helpers/widget.ts, which bench may not import):
 * what its timings were measured on, so it stays as it was.
 */
function widgetCrd(group: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wg'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } } },
              },
            },
          },
          subresources: { status: {} },
        },
      ],
    },
  };
}

async function firstObject(server: RunningServer, agent: Agent, i: number) {
  const group = `b${i}.bench.example.com`;
  const w = watchCrds(server.url, `widgets.${group}`);
  const t0 = performance.now();
  await httpExpect(agent, server.url, 'POST', CRDS, [201], widgetCrd(group));
  await w.until(established);
  const tEstablished = performance.now();
  await httpExpect(agent, server.url, 'POST', `/apis/${group}/v1/namespaces/${NS}/widgets`, [201], {
    apiVersion: `${group}/v1`,
    kind: 'Widget',
    metadata: { name: 'first' },
    spec: { size: 1 },
  });
  const legacy = await httpExpect(agent, server.url, 'GET', `/apis/${group}/v1`, [200]);
  if (!legacy.text.includes('"widgets"')) throw new Error(`/apis/${group}/v1 does not list widgets`);
  const aggregated = await new Promise<string>((resolve, reject) => {
    const req = request(
      new URL('/apis', server.url),
      { agent, headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end();
  });
  if (!aggregated.includes(`"${group}"`)) throw new Error(`aggregated discovery does not list ${group}`);
  const total = performance.now() - t0;
  w.close();
  const t1 = performance.now();
  await httpExpect(agent, server.url, 'POST', `/api/v1/namespaces/${NS}/configmaps`, [201], {
    metadata: { name: `baseline-${i}` },
    data: { a: 'b' },
  });
  return { totalMs: total, establishedMs: tEstablished - t0, configMapMs: performance.now() - t1 };
}

/** cert-manager's Certificate definition with three CEL rules added on spec. */
function certificateCrd() {
  const crd = parse(readFileSync(join(FIXTURES, 'cert-manager.io_certificates.yaml'), 'utf8'));
  for (const v of crd.spec.versions) {
    const spec = v.schema.openAPIV3Schema.properties.spec;
    spec['x-kubernetes-validations'] = [
      { rule: 'self.secretName.size() <= 253', message: 'secretName is too long' },
      {
        rule: '!has(self.dnsNames) || self.dnsNames.all(n, n.size() <= 253)',
        message: 'a DNS name is too long',
      },
      { rule: '!has(self.duration) || !has(self.renewBefore) || self.duration != self.renewBefore' },
    ];
  }
  return crd;
}

/** The cert-manager docs' Certificate as JSON with a name slot: each timed write only fills it in. */
function certificateBody(apiVersion = 'cert-manager.io/v1', kind = 'Certificate'): string {
  const example = parse(readFileSync(join(FIXTURES, 'certificates-example.yaml'), 'utf8'));
  return JSON.stringify({ ...example, apiVersion, kind, metadata: { name: NAME_SLOT, namespace: NS } });
}
const NAME_SLOT = '@@name@@';

/**
 * A definition that serves the same Certificate content with no schema to speak of (the root
 * keeps unknown fields): nothing to prune, default or validate, no CEL. It splits the custom
 * object's cost into what its shape costs (many small values to decode and encode, against the
 * ConfigMap's one string) and what the schema and rules add.
 */
const SCHEMALESS_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'schemaless.bench.example.com' },
  spec: {
    group: 'bench.example.com',
    scope: 'Namespaced',
    names: { plural: 'schemaless', singular: 'schemaless', kind: 'Schemaless', listKind: 'SchemalessList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** The scalar values in a decoded JSON value. */
function leafCount(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + leafCount(x), 0);
  if (v !== null && typeof v === 'object')
    return Object.values(v).reduce((n: number, x) => n + leafCount(x), 0);
  return 1;
}

async function writeCost(server: RunningServer, agent: Agent) {
  const rounds = quick ? 5 : 11;
  const writes = quick ? 200 : 600;
  const warmup = quick ? 200 : 1000;
  for (const crd of [certificateCrd(), SCHEMALESS_CRD]) {
    const w = watchCrds(server.url, crd.metadata.name);
    await httpExpect(agent, server.url, 'POST', CRDS, [201], crd);
    await w.until(established);
    w.close();
  }
  // Every body is serialized once, before timing, so the client's own encoding work (larger for
  // a nested object than for one long string) is not counted against the server's write.
  const cert = certificateBody();
  const schemaless = certificateBody('bench.example.com/v1', 'Schemaless');
  const cmEmpty = JSON.stringify({ metadata: { name: NAME_SLOT, namespace: NS }, data: { pad: '' } });
  const cm = JSON.stringify({
    metadata: { name: NAME_SLOT, namespace: NS },
    data: { pad: 'x'.repeat(Math.max(0, cert.length - cmEmpty.length)) },
  });
  // The same size as many values: one data key per value the Certificate's spec holds, padded to
  // the same bytes. A one-string ConfigMap is the cheapest object of a size to decode and encode;
  // this one has the Certificate's number of values, so it prices a built-in write of its shape.
  const leaves = leafCount(JSON.parse(cert).spec);
  const per = Math.max(1, Math.floor((cert.length - cmEmpty.length) / leaves) - 8);
  const manyData: Record<string, string> = {};
  for (let i = 0; i < leaves; i++) manyData[`k${i}`] = 'x'.repeat(per);
  const many = JSON.stringify({ metadata: { name: NAME_SLOT, namespace: NS }, data: manyData });
  const sides = {
    certificate: { path: `/apis/cert-manager.io/v1/namespaces/${NS}/certificates`, body: cert },
    schemaless: { path: `/apis/bench.example.com/v1/namespaces/${NS}/schemaless`, body: schemaless },
    configmap: { path: `/api/v1/namespaces/${NS}/configmaps`, body: cm },
    configmapValues: { path: `/api/v1/namespaces/${NS}/configmaps`, body: many },
  };
  let next = 0;
  const side = async (name: keyof typeof sides, count: number) => {
    const { path, body } = sides[name];
    const cpu = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      await httpExpect(agent, server.url, 'POST', path, [201], body.replace(NAME_SLOT, `o-${next++}`));
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / count;
  };
  for (const name of Object.keys(sides) as Array<keyof typeof sides>) await side(name, warmup);
  const us: Record<keyof typeof sides, number[]> = {
    certificate: [],
    schemaless: [],
    configmap: [],
    configmapValues: [],
  };
  const orders: Array<Array<keyof typeof sides>> = [
    ['certificate', 'configmap', 'schemaless', 'configmapValues'],
    ['configmap', 'configmapValues', 'certificate', 'schemaless'],
    ['schemaless', 'certificate', 'configmapValues', 'configmap'],
    ['configmapValues', 'schemaless', 'configmap', 'certificate'],
  ];
  for (let r = 0; r < rounds; r++) {
    console.error(`  round ${r + 1}/${rounds}`);
    for (const name of orders[r % orders.length]) us[name].push(await side(name, writes));
  }
  const ratio = (a: number[], b: number[]) => round(median(a.map((x, i) => x / b[i])), 3);
  return {
    objectBytes: cert.length - NAME_SLOT.length,
    celRules: 3,
    rounds,
    writesPerRound: writes,
    certificateUsPerWrite: round(median(us.certificate)),
    configMapUsPerWrite: round(median(us.configmap)),
    schemalessUsPerWrite: round(median(us.schemaless)),
    ratio: ratio(us.certificate, us.configmap),
    valuesConfigMapBytes: many.length - NAME_SLOT.length,
    valuesConfigMapKeys: leaves,
    valuesConfigMapUsPerWrite: round(median(us.configmapValues)),
    ratioToValuesConfigMap: ratio(us.certificate, us.configmapValues),
    // The split: the same content with no schema against the ConfigMap (the shape), and the
    // Certificate against that (the schema, its defaults and pruning, and the three rules).
    shapeRatio: ratio(us.schemaless, us.configmap),
    schemaRatio: ratio(us.certificate, us.schemaless),
  };
}

async function installAll(agent: Agent) {
  const server = await startServer({ insecureHttp: true, insecureNoAuth: true, compactionInterval: 0 });
  try {
    await httpExpect(agent, server.url, 'POST', '/api/v1/namespaces', [201], { metadata: { name: NS } });
    const crds = REAL_CRDS.map((c) => parse(readFileSync(join(FIXTURES, c.file), 'utf8')));
    const bytes = crds.map((c) => JSON.stringify(c).length);
    const w = watchCrds(server.url);
    const t0 = performance.now();
    for (const crd of crds) await httpExpect(agent, server.url, 'POST', CRDS, [201], crd);
    const posted = performance.now() - t0;
    await Promise.all(
      crds.map((crd) => w.until((o) => o.metadata.name === crd.metadata.name && established(o))),
    );
    const total = performance.now() - t0;
    w.close();
    const t1 = performance.now();
    for (const [i, n] of bytes.entries()) {
      await httpExpect(agent, server.url, 'POST', `/api/v1/namespaces/${NS}/configmaps`, [201], {
        metadata: { name: `same-bytes-${i}` },
        data: { pad: 'x'.repeat(Math.min(n, 900_000)) },
      });
    }
    const baseline = performance.now() - t1;
    return {
      crds: crds.length,
      totalBytes: bytes.reduce((a, b) => a + b, 0),
      postedMs: posted,
      totalMs: total,
      configMapsMs: baseline,
    };
  } finally {
    await server.close();
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const server = await startServer({ insecureHttp: true, insecureNoAuth: true, compactionInterval: 0 });
try {
  await httpExpect(agent, server.url, 'POST', '/api/v1/namespaces', [201], { metadata: { name: NS } });
  // Warm up: the first definition pays for loading the CRD modules and compiling the paths.
  await firstObject(server, agent, 999);
  console.error('1/3 definition to first object ...');
  const firsts = [];
  for (let i = 0; i < (quick ? 5 : 15); i++) firsts.push(await firstObject(server, agent, i));
  const first = {
    rounds: firsts.length,
    totalMs: round(median(firsts.map((f) => f.totalMs)), 2),
    establishedMs: round(median(firsts.map((f) => f.establishedMs)), 2),
    configMapMs: round(median(firsts.map((f) => f.configMapMs)), 2),
    ratioToConfigMap: round(median(firsts.map((f) => f.totalMs / f.configMapMs)), 1),
  };
  console.error('2/3 Certificate writes against ConfigMap writes ...');
  const write = await writeCost(server, agent);
  console.error(`3/3 installing ${REAL_CRDS.length} real definitions ...`);
  const installs = [];
  for (let i = 0; i < (quick ? 3 : 5); i++) installs.push(await installAll(agent));
  const install = {
    crds: installs[0].crds,
    totalBytes: installs[0].totalBytes,
    runs: installs.length,
    totalMs: round(median(installs.map((x) => x.totalMs))),
    postedMs: round(median(installs.map((x) => x.postedMs))),
    sameBytesConfigMapsMs: round(median(installs.map((x) => x.configMapsMs))),
    ratioToConfigMaps: round(median(installs.map((x) => x.totalMs / x.configMapsMs)), 2),
  };
  console.log(
    table(
      ['measure', 'watchmark', 'baseline', 'ratio', 'target', 'met'],
      [
        [
          'CRD create -> first object + discovery (ms)',
          first.totalMs,
          first.configMapMs,
          first.ratioToConfigMap,
          `<= ${TARGETS.firstObjectMs} ms`,
          first.totalMs <= TARGETS.firstObjectMs ? 'yes' : 'NO',
        ],
        [
          'Certificate (3 CEL rules) vs same-size ConfigMap (µs CPU/write)',
          write.certificateUsPerWrite,
          write.configMapUsPerWrite,
          write.ratio,
          `<= ${TARGETS.writeRatio}x`,
          write.ratio <= TARGETS.writeRatio ? 'yes' : 'NO',
        ],
        [
          '  against a same-size ConfigMap of as many values',
          write.certificateUsPerWrite,
          write.valuesConfigMapUsPerWrite,
          write.ratioToValuesConfigMap,
          `<= ${TARGETS.writeRatio}x`,
          write.ratioToValuesConfigMap <= TARGETS.writeRatio ? 'yes' : 'NO',
        ],
        [
          '  of which: same content, no schema, vs the ConfigMap',
          write.schemalessUsPerWrite,
          write.configMapUsPerWrite,
          write.shapeRatio,
          '',
          '',
        ],
        [
          '  of which: Certificate vs the same content with no schema',
          write.certificateUsPerWrite,
          write.schemalessUsPerWrite,
          write.schemaRatio,
          '',
          '',
        ],
        [
          `install ${install.crds} real CRDs until Established (ms)`,
          install.totalMs,
          install.sameBytesConfigMapsMs,
          install.ratioToConfigMaps,
          `<= ${TARGETS.installAllMs} ms`,
          install.totalMs <= TARGETS.installAllMs ? 'yes' : 'NO',
        ],
      ],
    ),
  );
  if (!quick) {
    mkdirSync(dirname(OUT), { recursive: true });
    writeFileSync(
      OUT,
      `${JSON.stringify({ targets: TARGETS, firstObject: first, writeCost: write, installAll: install }, null, 2)}\n`,
    );
    console.log(`wrote ${OUT}`);
  }
} finally {
  agent.destroy();
  await server.close();
}
