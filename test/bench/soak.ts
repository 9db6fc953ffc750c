// A year in a few minutes: payload and shell jobs pushed through one real `lanes daemon` with a
// short LANES_KEEP, so retention removes them as they go (docs/retention.md). Reported: the data
// directory's bytes and files per job still kept, beside an empty engine's; the engine's RSS at
// the start, the middle and the end; the longest a cleaning step held the event loop; and no-op
// throughput with pruning beside throughput without it, run alternately (A B A B).
//
// A full run pushes 1,000,000 payload jobs and 100,000 shell jobs, each shell job writing to both
// stdout and stderr (the case that kept three log files before they were joined); --quick pushes
// 20,000 and 1,000. LANES_BENCH_SOAK=PAYLOAD,SHELL sets other sizes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NOOP_WORKER, withDaemon, type Daemon } from './lanes-daemon.js';
import { alternate, compared, perSecond, summarize, until, type Figure } from './stats.js';

const SECTION = 'Kept for a year (retention)';
/** Short enough that jobs leave while the soak still runs; long enough that a pass has work. */
const KEEP = '5s';
const BATCH = 10_000;

export interface SoakSize {
  payload: number;
  shell: number;
  /** Jobs per throughput run, with pruning and without. */
  pairJobs: number;
  pairs: number;
}

export function soakSize(quick: boolean, env: NodeJS.ProcessEnv = process.env): SoakSize {
  const given = env.LANES_BENCH_SOAK?.split(',').map(Number);
  const base = quick ? { payload: 20_000, shell: 1_000, pairJobs: 10_000, pairs: 2 } : { payload: 1_000_000, shell: 100_000, pairJobs: 40_000, pairs: 3 };
  if (given && given.length === 2 && given.every((n) => Number.isSafeInteger(n) && n >= 0)) return { ...base, payload: given[0]!, shell: given[1]! };
  return base;
}

/** Bytes on disk (allocated blocks) and files under `dir`. */
function diskUse(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = diskUse(path);
      bytes += sub.bytes;
      files += sub.files;
    } else if (e.isFile()) {
      bytes += statSync(path).blocks * 512;
      files++;
    }
  }
  return { bytes, files };
}

const rssMiB = (pid: number) => Number(/^VmRSS:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

async function finished(d: Daemon, lane: string): Promise<number> {
  const l = (await d.api('status', {})).lanes.find((x) => x.name === lane);
  return l ? l.succeeded + l.failed + l.cancelled : 0;
}

/** Pushes `n` jobs into `lane` a batch at a time, keeping at most two batches waiting, until all have run (as counted by `done`). */
async function push(d: Daemon, lane: string, n: number, job: Record<string, unknown>, done: () => Promise<number>, middle: () => void): Promise<void> {
  let queued = 0;
  let saidMiddle = false;
  while (queued < n) {
    const count = Math.min(BATCH, n - queued);
    await d.api('addJobs', { jobs: Array.from({ length: count }, () => ({ ...job, lane })) as never });
    queued += count;
    if (!saidMiddle && queued >= n / 2) {
      saidMiddle = true;
      middle();
    }
    await until(async () => queued - (await done()) <= 2 * BATCH, `${lane} keeping up`, 600_000, 50);
  }
  await until(async () => (await done()) >= n, `${lane} drained`, 600_000, 50);
}

/** The engine's own words on one kind of cleaning step, from its last lines: median, 99th percentile, longest, and the longest CPU. */
function stepTimes(stderr: string, what: string): { median: number; p99: number; max: number; cpu: number; n: number } {
  const m = new RegExp(`${what}: median ([\\d.]+) ms, 99th ([\\d.]+) ms, longest ([\\d.]+) ms \\(its CPU at most ([\\d.]+) ms\\), (\\d+) steps`).exec(stderr);
  return m ? { median: Number(m[1]), p99: Number(m[2]), max: Number(m[3]), cpu: Number(m[4]), n: Number(m[5]) } : { median: NaN, p99: NaN, max: NaN, cpu: NaN, n: 0 };
}

export async function soakFigures(size: SoakSize, log: (s: string) => void): Promise<Figure[]> {
  const empty = await withDaemon(async (d) => diskUse(d.dataDir));
  let stderr = '';
  const soak = await withDaemon(
    async (d) => {
      await d.api('addLane', { name: 'soak', cap: 2, workerCommand: NOOP_WORKER });
      await d.api('setCap', { lane: 'worker', cap: 2 });
      const rss: number[] = [rssMiB(d.pid)];
      const t0 = performance.now();
      // A job that ran is no longer unfinished, whether retention has removed it yet or not.
      const ran = async (lane: string, total: number) => {
        const l = (await d.api('status', {})).lanes.find((x) => x.name === lane);
        return l ? total - l.waiting - l.delayed - l.running : 0;
      };
      await push(d, 'soak', size.payload, { payload: {} }, () => ran('soak', size.payload), () => rss.push(rssMiB(d.pid)));
      log(`  ${size.payload.toLocaleString('en-US')} payload jobs in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      await push(d, 'worker', size.shell, { argv: ['sh', '-c', 'echo soak; echo soak >&2'] }, () => ran('worker', size.shell), () => {});
      log(`  ${size.shell.toLocaleString('en-US')} shell jobs by ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      rss.push(rssMiB(d.pid));
      // Kept now: what retention has not reached yet (it runs every quarter of the keep).
      const keptNow = (await finished(d, 'soak')) + (await finished(d, 'worker'));
      const atEnd = diskUse(d.dataDir);
      const shellKept = await finished(d, 'worker');
      const shellFiles = diskUse(join(d.dataDir, 'logs')).files;
      // Then everything leaves once its keep is up: the directory of an engine that has run them all.
      await until(async () => (await finished(d, 'soak')) + (await finished(d, 'worker')) === 0, 'every finished job cleaned', 120_000, 200);
      // A pass after the last removal gives the space back.
      await new Promise((done) => setTimeout(done, 3_000));
      const cleaned = diskUse(d.dataDir);
      // What the compact records of removed jobs take: kept on purpose, and bounded (CLEANED_KEEP).
      const db = new Database(join(d.dataDir, 'lanes.db'), { readonly: true });
      const records = db.prepare<[], { bytes: number | null; n: number }>("SELECT (SELECT sum(pgsize) FROM dbstat WHERE name = 'cleaned_jobs') AS bytes, (SELECT count(*) FROM cleaned_jobs) AS n").get()!;
      db.close();
      return { rss, keptNow, atEnd, shellKept, shellFiles, cleaned, records: { bytes: records.bytes ?? 0, n: records.n } };
    },
    { LANES_KEEP: KEEP },
    (d) => (stderr = d.stderr()),
  );

  // Throughput side by side: the same drain with pruning (a short keep) and without (a keep no job reaches).
  const drainWith = (keep: string) =>
    withDaemon(
      async (d) => {
        await d.api('addLane', { name: 'soak', cap: 2, workerCommand: NOOP_WORKER });
        const t0 = performance.now();
        const n = size.pairJobs;
        for (let i = 0; i < n; i += BATCH) await d.api('addJobs', { jobs: Array.from({ length: Math.min(BATCH, n - i) }, () => ({ lane: 'soak', payload: {} })) });
        await until(
          async () => {
            const l = (await d.api('status', {})).lanes.find((x) => x.name === 'soak');
            return !!l && l.waiting + l.delayed + l.running === 0;
          },
          'drain',
          600_000,
          20,
        );
        return perSecond(n, performance.now() - t0);
      },
      { LANES_KEEP: keep },
    );
  const series = await alternate(size.pairs, () => drainWith('1s'), () => drainWith('3650d'));

  const per = (bytes: number, n: number) => (n > 0 ? bytes / n : 0);
  const mib = (b: number) => b / 1_048_576;
  const at = `${size.payload.toLocaleString('en-US')} payload + ${size.shell.toLocaleString('en-US')} shell jobs, LANES_KEEP=${KEEP}`;
  const one = (what: string, unit: string, value: number, target?: string, met?: boolean, note?: string): Figure => ({
    section: SECTION,
    what,
    unit,
    lanes: summarize([value]),
    ...(target ? { target, met } : {}),
    ...(note ? { note } : {}),
  });
  const throughput = compared({ section: SECTION, what: `no-op jobs drained by 2 workers while finished ones are pruned (${size.pairJobs.toLocaleString('en-US')} jobs, keep 1 s)`, unit: 'jobs/s' }, series, 'the same drain, keep 10 years (nothing pruned)');
  return [
    one(
      `data directory after ${at}, everything cleaned, less the compact records of removed jobs`,
      'MiB',
      mib(soak.cleaned.bytes - soak.records.bytes),
      `≤ 2 × an empty engine's (${mib(empty.bytes).toFixed(2)} MiB)`,
      soak.cleaned.bytes - soak.records.bytes <= 2 * empty.bytes,
    ),
    one('the compact records of removed jobs, kept on purpose', 'MiB', mib(soak.records.bytes), undefined, undefined, `${soak.records.n.toLocaleString('en-US')} records, at most 100,000 are kept`),
    one('files in the data directory then', 'files', soak.cleaned.files, undefined, undefined, `an empty engine's: ${empty.files}`),
    one('data directory at the last job, per job still kept', 'bytes', per(soak.atEnd.bytes - empty.bytes, soak.keptNow), undefined, undefined, `${soak.keptNow.toLocaleString('en-US')} jobs not yet past their keep`),
    one('log files per shell job still kept, at the last job', 'files', soak.shellKept > 0 ? soak.shellFiles / soak.shellKept : 0, '≤ 1', soak.shellKept === 0 || soak.shellFiles <= soak.shellKept),
    one('engine RSS at the start', 'MiB', soak.rss[0]!),
    one('engine RSS in the middle', 'MiB', soak.rss[1] ?? NaN),
    one('engine RSS at the end', 'MiB', soak.rss.at(-1)!),
    ...[
      ['a chunk of jobs', 'a chunk of cleaning (500 ids: find, remove, keep their records)'],
      ['a vacuum step', 'a vacuum step (512 pages back to the disk)'],
      ['a checkpoint', 'a checkpoint (after a burst of removals, or once a minute during one; a sync, as the engine’s own every 4,000 pages)'],
    ].map(([kind, what]): Figure => {
      const t = stepTimes(stderr, kind!);
      return {
        section: SECTION,
        what: `how long ${what} held the event loop: median (99th percentile to the longest)`,
        unit: 'ms',
        lanes: { median: t.median, min: t.p99, max: t.max, n: t.n },
        note: `its own CPU at most ${t.cpu} ms: the rest of the longest is the process waiting for a core or the disk on this shared machine`,
        ...(kind === 'a chunk of jobs' ? { target: 'median ≤ 10 ms', judge: (f: Figure) => f.lanes.median <= 10 } : {}),
      };
    }),
    throughput,
  ];
}
