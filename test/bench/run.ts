// `npm run bench`: measures the engine, prints a table and writes it into docs/benchmarks.md
// (only its own section, so other sections of that file are kept).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import si from 'systeminformation';
import { appRoot } from '../../electron/paths/app-files.js';
import { enqueueRates, idleCpu, noopThroughput, sizerPass, shellThroughput, startLatency, type Figure } from './measures.js';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 3;
const log = (s: string) => process.stderr.write(s + '\n');

const steps: [string, () => Promise<Figure[]>][] = [
  ['enqueue rate', enqueueRates],
  ['no-op throughput', () => noopThroughput(RUNS)],
  ['shell-job throughput', () => shellThroughput(RUNS)],
  ['enqueue → start latency', () => startLatency(quick ? 5 : 15)],
  ['sizer pass at scale', () => sizerPass(50, quick ? 100_000 : 1_000_000, log)],
  ['idle engine', () => idleCpu(quick ? 5 : 60)],
];

const figures: Figure[] = [];
for (const [name, run] of steps) {
  log(`measuring ${name} …`);
  figures.push(...(await run()));
}

const fmt = (f: Figure) =>
  f.unit === 'ms' || f.unit === '%' ? f.value.toFixed(f.value < 1 ? 3 : 1) : Math.round(f.value).toLocaleString('en-US');
const rows = figures.map((f) => [f.what, `${fmt(f)} ${f.unit}`, f.target ?? '', f.pass === undefined ? '' : f.pass ? 'met' : 'MISSED']);

const cpu = await si.cpu();
const mem = await si.mem();
const os = await si.osInfo();
const sqlite = (new Database(':memory:').prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
const machine = `${cpu.manufacturer} ${cpu.brand}, ${cpu.cores} logical cores, ${(mem.total / 2 ** 30).toFixed(0)} GiB, ${os.distro} ${os.release}, Node ${process.versions.node}, SQLite ${sqlite}`;

const table = [
  '| Measure | Result | Target | |',
  '| --- | ---: | --- | --- |',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');

console.log(`\n${machine}\n`);
const width = Math.max(...rows.map((r) => r[0]!.length));
for (const r of rows) console.log(`${r[0]!.padEnd(width)}  ${r[1]!.padStart(14)}  ${r[2]!.padEnd(26)} ${r[3]}`);

const section = [
  '<!-- engine-benchmark:start -->',
  '## Engine',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\`${quick ? ' (quick mode: fewer runs)' : ''}, medians of ${RUNS} runs.`,
  `Machine: ${machine}.`,
  '',
  table,
  '',
  'How each figure is taken: [benchmarks-method.md](benchmarks-method.md). The window with 100,000',
  'queued jobs is measured separately: [benchmarks-window.md](benchmarks-window.md).',
  '<!-- engine-benchmark:end -->',
].join('\n');

const file = join(appRoot, 'docs', 'benchmarks.md');
const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
const marked = /<!-- engine-benchmark:start -->[\s\S]*<!-- engine-benchmark:end -->/;
writeFileSync(file, marked.test(current) ? current.replace(marked, section) : `${current.trimEnd()}\n\n${section}\n`);
log(`\nwrote ${file}`);
process.exit(figures.some((f) => f.pass === false) ? 1 : 0);
