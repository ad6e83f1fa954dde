import { runSeeds, summaryLine } from './engine.js';
const s = await runSeeds(Array.from({ length: 24 }, (_, i) => i + 1), { concurrency: 8 });
console.log(summaryLine(s));
await new Promise((r) => setTimeout(r, 200));
console.log(process.getActiveResourcesInfo());
