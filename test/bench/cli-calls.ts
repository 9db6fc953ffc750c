// What a CLI call costs a person at a terminal, against the least any Node program costs: each
// round runs bare `node -e 0` and then each `lanes` call, so every difference is taken between
// calls made moments apart, on the same machine state. The engine is one as a person meets it:
// `lanes daemon` in the default data directory (no --data-dir, no LANES_DATA_DIR), holding lanes of
// its own, a thousand jobs kept and some failed and scheduled; `lanes add -- true` goes into the
// worker lane and runs there (waited for between rounds, untimed), and each call's output goes into
// a pipe, as `id=$(lanes add …)` reads it. Beside them, the native-module check that runs before
// every `npm test` and `npm run bench`, which must stay cheap when it has nothing to do (about 200 ms
// in all on an idle machine, where bare Node takes some 80). Then the standalone executable an
// installed app carries (`npm run build:exe`) against `node bin/lanes.js`, call by call.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import { CLI, finishedIn, withDaemon, type Daemon } from './lanes-daemon.js';
import { compared, until, type Figure } from './stats.js';

const EXE = join(appRoot, 'dist', 'exe', process.platform === 'win32' ? 'lanes.exe' : 'lanes');

const SECTION = 'The command line';

interface Call {
  what: string;
  argv: string[];
  slack: number;
  /** Untimed, after each call: what it set going has settled (an added job has finished). */
  after?: (stdout: string) => Promise<void>;
}

/** One whole call, its output read through a pipe; its time in ms. */
async function timed(call: Pick<Call, 'argv' | 'after'>, env: NodeJS.ProcessEnv, program: string = process.execPath): Promise<number> {
  const t0 = performance.now();
  const r = spawnSync(program, call.argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: ${program} ${call.argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  await call.after?.(r.stdout);
  return ms;
}

/** Some days' use: lanes of one's own, 1,000 jobs done and kept, 50 failed, 20 scheduled for tomorrow. */
async function used(d: Daemon): Promise<void> {
  for (const name of ['build', 'docs', 'scrape', 'thumbs', 'nightly']) await d.api('addLane', { name, cap: 1 });
  await d.api('addJobs', { jobs: Array.from({ length: 1_000 }, () => ({ lane: 'worker', argv: ['true'] })) });
  await d.api('addJobs', { jobs: Array.from({ length: 50 }, () => ({ lane: 'build', argv: ['false'] })) });
  await d.api('addJobs', { jobs: Array.from({ length: 20 }, () => ({ lane: 'nightly', argv: ['true'], delaySeconds: 86_400 })) });
  await until(async () => (await finishedIn(d, 'worker')) >= 1_000 && (await finishedIn(d, 'build')) >= 50, 'a day’s jobs to finish', 300_000, 50);
}

/** Waits for the job whose id `lanes add` printed to finish. */
const jobDone = (d: Daemon) => async (stdout: string) => {
  const id = Number(stdout.trim());
  if (!Number.isInteger(id)) throw new Error(`bench: lanes add printed ${JSON.stringify(stdout)}, not a job id`);
  await until(async () => (await d.api('job', { id })).state === 'succeeded', `job ${id} to finish`, 30_000, 5);
};

export function cliFigures(rounds: number): Promise<Figure[]> {
  return withDaemon(
    async (d) => {
      await used(d);
      const env = { ...process.env, ...d.cliEnv };
      const calls: Call[] = [
        { what: '`lanes --version`', argv: [CLI, '--version'], slack: 20 },
        { what: '`lanes add -- true`', argv: [CLI, 'add', '--', 'true'], slack: 25, after: jobDone(d) },
        { what: '`lanes status`', argv: [CLI, 'status'], slack: 25 },
        { what: '`node electron/native/abi.mjs node` with nothing to do', argv: [join(appRoot, 'electron', 'native', 'abi.mjs'), 'node'], slack: 120 },
      ];
      const bare = { argv: ['-e', '0'] };
      const bares: number[] = [];
      const lanes = calls.map(() => [] as number[]);
      // One call of each first, so the files are in the page cache for both sides (and each
      // command's first call writes its code cache, as a person's first after a build does).
      await timed(bare, env);
      for (const call of calls) await timed(call, env);
      for (let i = 0; i < rounds; i++) {
        bares.push(await timed(bare, env));
        for (const [k, call] of calls.entries()) lanes[k]!.push(await timed(call, env));
      }
      const figures = calls.map((call, k) => {
        const f = compared(
          { section: SECTION, what: `${call.what}, whole call`, unit: 'ms', target: `≤ bare + ${call.slack} ms` },
          { lanes: lanes[k]!, peer: bares },
          '`node -e 0`',
          'difference',
        );
        f.judge = (g) => g.compared!.value.median <= call.slack;
        return f;
      });
      // The executable stands in for `node bin/lanes.js`, so only the CLI's own calls are paired.
      const cliCalls = calls.filter((c) => c.argv[0] === CLI).map((c) => ({ ...c, argv: c.argv.slice(1) }));
      return [...figures, ...(await exeFigures(cliCalls, rounds, env))];
    },
    {},
    () => {},
    { asPerson: true },
  );
}

/**
 * The standalone `lanes` against `node bin/lanes.js`, the same call alternately. Its promise is
 * to start no slower; 1 ms of slack is the noise of one process start on a loaded machine.
 */
async function exeFigures(calls: Call[], rounds: number, env: NodeJS.ProcessEnv): Promise<Figure[]> {
  if (!existsSync(EXE)) throw new Error(`bench: ${EXE} is missing; run \`npm run build:exe\` first`);
  const exe = calls.map(() => [] as number[]);
  const node = calls.map(() => [] as number[]);
  for (const call of calls) await timed(call, env, EXE);
  for (let i = 0; i < rounds; i++) {
    for (const [k, call] of calls.entries()) {
      exe[k]!.push(await timed(call, env, EXE));
      node[k]!.push(await timed({ ...call, argv: [CLI, ...call.argv] }, env));
    }
  }
  return calls.map((call, k) => {
    const f = compared(
      { section: SECTION, what: `${call.what}, the standalone executable`, unit: 'ms', target: '≤ node bin/lanes.js + 1 ms' },
      { lanes: exe[k]!, peer: node[k]! },
      '`node bin/lanes.js`',
      'difference',
    );
    f.judge = (g) => g.compared!.value.median <= 1;
    return f;
  });
}
