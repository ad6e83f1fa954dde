/**
 * bench:ssa: what server-side apply's field ownership costs, against the write a user would make
 * instead, in the same run on one server.
 *
 * 1. CPU per apply of a Deployment (kubectl's shape: the whole configuration, one field changed)
 *    against a strategic merge patch of the same change to another Deployment (the patch
 *    `kubectl set image` sends), as process CPU per request in interleaved rounds. Both objects
 *    carry managedFields, as every object written through a current client does, so both sides
 *    pay ownership upkeep; the apply also merges, prunes and checks conflicts. Target (issue 23):
 *    <= 2x.
 * 2. The same for a large custom object: cert-manager's Certificate (its real definition, 48 KB
 *    of schema), an apply against a JSON merge patch (custom resources take no strategic merge).
 *    Target: <= 2x.
 * 3. What managedFields add: bytes of the stored object with and without them, and the share of a
 *    watch event's bytes they take.
 *
 *   npm run bench:ssa              # full: writes bench/results/ssa.json
 *   npm run bench:ssa -- --quick   # fewer rounds, prints only
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startServer } from '../src/server/index.js';
import { httpCall, httpExpect } from '../support/http.js';
import { round, table } from './lib/report.js';

const quick = process.argv.includes('--quick');
const OUT = fileURLToPath(new URL('./results/ssa.json', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../support/fixtures/crds/', import.meta.url));
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NS = 'bench';
const TARGETS = { applyVsPatch: 2 };
const MANAGER = 'bench';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function deployment(name: string, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, labels: { app: name } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'main',
              image,
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              env: [{ name: 'MODE', value: 'bench' }],
              resources: { requests: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
      },
    },
  };
}

function certificate(name: string, duration: string) {
  const example = parse(readFileSync(join(FIXTURES, 'certificates-example.yaml'), 'utf8'));
  return { ...example, metadata: { name, namespace: NS }, spec: { ...example.spec, duration } };
}

interface Side {
  /** The request of write `i`: method, path, content type, body. */
  write(i: number): { path: string; type: string; body: string };
}

async function waitEstablished(url: string, name: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const crd = (await (await fetch(`${url}${CRDS}/${name}`)).json()) as {
      status?: { conditions?: Array<{ type: string; status: string }> };
    };
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`${name} never became Established`);
}

/** Bytes of an object as stored and served, with and without its managedFields. */
function sizes(obj: { metadata?: { managedFields?: unknown } }) {
  const withFields = JSON.stringify(obj).length;
  const managed = obj.metadata?.managedFields;
  const { managedFields: _, ...meta } = obj.metadata ?? {};
  const without = JSON.stringify({ ...obj, metadata: meta }).length;
  return {
    objectBytes: without,
    withManagedFieldsBytes: withFields,
    managedFieldsBytes: withFields - without,
    managers: Array.isArray(managed) ? managed.length : 0,
  };
}

/** Bytes of the watch events of `path` while `work` runs: total and the managedFields' part. */
async function watchBytes(url: string, path: string, work: () => Promise<void>) {
  let events = 0;
  let bytes = 0;
  let managedBytes = 0;
  let buffer = '';
  const req = request(new URL(`${path}?watch=1&resourceVersion=0`, url));
  const opened = new Promise<void>((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const event = JSON.parse(line) as {
            type: string;
            object: { metadata?: { managedFields?: unknown } };
          };
          if (event.type !== 'MODIFIED') continue;
          events++;
          bytes += line.length + 1;
          managedBytes += JSON.stringify(event.object.metadata?.managedFields ?? []).length;
        }
      });
      resolve();
    });
    req.on('error', reject);
  });
  req.end();
  await opened;
  const before = events;
  await work();
  // The writes' events follow the answers: wait until every one arrived.
  for (let i = 0; i < 1000 && events === before; i++) await new Promise((r) => setImmediate(r));
  req.destroy();
  return {
    events,
    bytesPerEvent: events ? round(bytes / events) : 0,
    managedFieldsShare: bytes ? round(managedBytes / bytes, 3) : 0,
  };
}

async function main() {
  const server = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
    insecureHttp: true,
    insecureNoAuth: true,
    compactionInterval: 0,
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = server.url;
    await httpExpect(agent, url, 'POST', '/api/v1/namespaces', [201], { metadata: { name: NS } });
    const crd = parse(readFileSync(join(FIXTURES, 'cert-manager.io_certificates.yaml'), 'utf8'));
    await httpExpect(agent, url, 'POST', CRDS, [201], crd);
    await waitEstablished(url, crd.metadata.name);

    const deployments = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const certificates = `/apis/cert-manager.io/v1/namespaces/${NS}/certificates`;
    const images = ['nginx:1.27', 'nginx:1.28'];
    const durations = ['2160h', '2200h'];
    // Each side's object is created by an apply first, so both carry managedFields.
    const raw = async (method: string, path: string, type: string, body: string) => {
      const r = await httpCall(agent, url, method, path, body, type);
      if (r.status >= 300) throw new Error(`${method} ${path}: HTTP ${r.status}: ${r.text.slice(0, 300)}`);
    };
    const APPLY = 'application/apply-patch+yaml';
    for (const name of ['applied', 'patched']) {
      await raw(
        'PATCH',
        `${deployments}/${name}?fieldManager=${MANAGER}`,
        APPLY,
        JSON.stringify(deployment(name, images[0])),
      );
      await raw(
        'PATCH',
        `${certificates}/${name}?fieldManager=${MANAGER}`,
        APPLY,
        JSON.stringify(certificate(name, durations[0])),
      );
    }
    const deploymentSides: Record<'apply' | 'patch', Side> = {
      apply: {
        write: (i) => ({
          path: `${deployments}/applied?fieldManager=${MANAGER}`,
          type: APPLY,
          body: JSON.stringify(deployment('applied', images[(i + 1) % 2])),
        }),
      },
      patch: {
        write: (i) => ({
          path: `${deployments}/patched?fieldManager=${MANAGER}`,
          type: 'application/strategic-merge-patch+json',
          body: JSON.stringify({
            spec: { template: { spec: { containers: [{ name: 'main', image: images[(i + 1) % 2] }] } } },
          }),
        }),
      },
    };
    const customSides: Record<'apply' | 'patch', Side> = {
      apply: {
        write: (i) => ({
          path: `${certificates}/applied?fieldManager=${MANAGER}`,
          type: APPLY,
          body: JSON.stringify(certificate('applied', durations[(i + 1) % 2])),
        }),
      },
      patch: {
        write: (i) => ({
          path: `${certificates}/patched?fieldManager=${MANAGER}`,
          type: 'application/merge-patch+json',
          body: JSON.stringify({ spec: { duration: durations[(i + 1) % 2] } }),
        }),
      },
    };

    const rounds = quick ? 5 : 11;
    const writes = quick ? 100 : 400;
    const cost = async (sides: Record<'apply' | 'patch', Side>, label: string) => {
      // Bodies are made before timing; only the requests are measured.
      const side = async (s: Side, count: number) => {
        const requests = Array.from({ length: count }, (_, i) => s.write(i));
        const cpu = process.cpuUsage();
        for (const r of requests) await raw('PATCH', r.path, r.type, r.body);
        const used = process.cpuUsage(cpu);
        return (used.user + used.system) / count;
      };
      await side(sides.apply, writes);
      await side(sides.patch, writes);
      const us = { apply: [] as number[], patch: [] as number[] };
      for (let r = 0; r < rounds; r++) {
        console.error(`  ${label}: round ${r + 1}/${rounds}`);
        const order: Array<'apply' | 'patch'> = r % 2 === 0 ? ['apply', 'patch'] : ['patch', 'apply'];
        for (const name of order) us[name].push(await side(sides[name], writes));
      }
      return {
        rounds,
        writesPerRound: writes,
        applyUsPerWrite: round(median(us.apply)),
        patchUsPerWrite: round(median(us.patch)),
        ratio: round(median(us.apply.map((a, i) => a / us.patch[i])), 3),
      };
    };
    console.error('1/3 Deployment: apply against a strategic merge patch ...');
    const deploymentCost = await cost(deploymentSides, 'Deployment');
    console.error('2/3 Certificate: apply against a merge patch ...');
    const customCost = await cost(customSides, 'Certificate');

    console.error('3/3 sizes ...');
    const get = async (path: string) => JSON.parse((await httpCall(agent, url, 'GET', path)).text);
    const deploymentSize = sizes(await get(`${deployments}/applied`));
    const customSize = sizes(await get(`${certificates}/applied`));
    const deploymentWatch = await watchBytes(url, deployments, async () => {
      for (let i = 0; i < 20; i++) {
        const r = deploymentSides.apply.write(i);
        await raw('PATCH', r.path, r.type, r.body);
      }
    });
    const customWatch = await watchBytes(url, certificates, async () => {
      for (let i = 0; i < 20; i++) {
        const r = customSides.apply.write(i);
        await raw('PATCH', r.path, r.type, r.body);
      }
    });

    console.log(
      table(
        ['measure', 'apply', 'baseline', 'ratio', 'target', 'met'],
        [
          [
            'Deployment: apply vs strategic merge patch (µs CPU/write)',
            deploymentCost.applyUsPerWrite,
            deploymentCost.patchUsPerWrite,
            deploymentCost.ratio,
            `<= ${TARGETS.applyVsPatch}x`,
            deploymentCost.ratio <= TARGETS.applyVsPatch ? 'yes' : 'NO',
          ],
          [
            'Certificate: apply vs merge patch (µs CPU/write)',
            customCost.applyUsPerWrite,
            customCost.patchUsPerWrite,
            customCost.ratio,
            `<= ${TARGETS.applyVsPatch}x`,
            customCost.ratio <= TARGETS.applyVsPatch ? 'yes' : 'NO',
          ],
        ],
      ),
    );
    console.log(
      table(
        [
          'object',
          'bytes',
          '+managedFields',
          'managers',
          'watch event bytes',
          'managedFields share of event',
        ],
        [
          [
            'Deployment',
            deploymentSize.objectBytes,
            deploymentSize.managedFieldsBytes,
            deploymentSize.managers,
            deploymentWatch.bytesPerEvent,
            deploymentWatch.managedFieldsShare,
          ],
          [
            'Certificate',
            customSize.objectBytes,
            customSize.managedFieldsBytes,
            customSize.managers,
            customWatch.bytesPerEvent,
            customWatch.managedFieldsShare,
          ],
        ],
      ),
    );
    if (!quick) {
      mkdirSync(dirname(OUT), { recursive: true });
      writeFileSync(
        OUT,
        `${JSON.stringify(
          {
            targets: TARGETS,
            deployment: { cost: deploymentCost, size: deploymentSize, watch: deploymentWatch },
            certificate: { cost: customCost, size: customSize, watch: customWatch },
          },
          null,
          2,
        )}\n`,
      );
      console.error(`wrote ${OUT}`);
    }
  } finally {
    agent.destroy();
    await server.close();
  }
}

await main();
