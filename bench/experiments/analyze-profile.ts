/**
 * Top frames of one or more .cpuprofile files (merged): self time and
 * inclusive time (a frame counted once per sample however deep it recurs),
 * as % of all samples and ms, the top N of each.
 *
 *   npx tsx bench/experiments/analyze-profile.ts [--top N] a.cpuprofile b.cpuprofile ...
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 12;
const files = args.filter((a, i) => a !== '--top' && args[i - 1] !== '--top');

const self = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;

const label = (n: Node) => {
  const f = n.callFrame;
  const file = f.url
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/work\/main\//, '')
    .replace(/^node:/, 'node:');
  return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
};

for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  for (let i = 0; i < p.samples.length; i++) {
    // timeDeltas[i] is the time before sample i; attribute the next delta to this sample.
    const dt = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]) / 1000;
    total += dt;
    let id: number | undefined = p.samples[i];
    const leaf = byId.get(id)!;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
    const seen = new Set<string>();
    while (id !== undefined) {
      const l = label(byId.get(id)!);
      if (!seen.has(l)) {
        seen.add(l);
        incl.set(l, (incl.get(l) ?? 0) + dt);
      }
      id = parent.get(id);
    }
  }
}

const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${total.toFixed(0)} ms sampled, ${files.length} profile(s))`);
  const rows = [...m].filter(([l]) => !/^\(root\)|^\(program\)$/.test(l) || title.startsWith('self'));
  for (const [l, ms] of rows.sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * ms) / total).toFixed(1).padStart(5)} %  ${ms.toFixed(1).padStart(7)} ms  ${l}`);
};
show('self', self);
show('inclusive', incl);
