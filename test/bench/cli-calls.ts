// What a CLI call costs a person at a terminal, against the least any Node program costs: each
// round runs bare `node -e 0` and then each `lanes` call, so every difference is taken between
// calls made moments apart, on the same machine state. Beside them, the native-module check that
// runs before every `npm test` and `npm run bench`, which must stay cheap when it has nothing to do
// (about 200 ms in all on an idle machine, where bare Node takes some 80). Then the standalone
// executable an installed app carries (`npm run build:exe`) against `node bin/lanes.js`, call by call.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import { CLI, withDaemon } from './lanes-daemon.js';
import { compared, type Figure } from './stats.js';

const EXE = join(appRoot, 'dist', 'exe', process.platform === 'win32' ? 'lanes.exe' : 'lanes');

const SECTION = 'The command line';

function timed(args: string[], program: string = process.execPath): number {
  const t0 = performance.now();
  const r = spawnSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: ${program} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export function cliFigures(rounds: number): Promise<Figure[]> {
  return withDaemon(async (d) => {
    await d.api('addLane', { name: 'parked', cap: 0 });
    const calls = [
      { what: '`lanes --version`', argv: [CLI, '--version'], slack: 20 },
      { what: '`lanes add -- true`', argv: [CLI, '--data-dir', d.dataDir, 'add', '--lane', 'parked', '--', 'true'], slack: 25 },
      { what: '`lanes status`', argv: [CLI, '--data-dir', d.dataDir, 'status'], slack: 25 },
      { what: '`node electron/native/abi.mjs node` with nothing to do', argv: [join(appRoot, 'electron', 'native', 'abi.mjs'), 'node'], slack: 120 },
    ];
    const bare: number[] = [];
    const lanes = calls.map(() => [] as number[]);
    // One call of each first, so the files are in the page cache for both sides.
    timed(['-e', '0']);
    for (const call of calls) timed(call.argv);
    for (let i = 0; i < rounds; i++) {
      bare.push(timed(['-e', '0']));
      calls.forEach((call, k) => lanes[k]!.push(timed(call.argv)));
    }
    const figures = calls.map((call, k) => {
      const f = compared(
        { section: SECTION, what: `${call.what}, whole call`, unit: 'ms', target: `≤ bare + ${call.slack} ms` },
        { lanes: lanes[k]!, peer: bare },
        '`node -e 0`',
        'difference',
      );
      f.judge = (g) => g.compared!.value.median <= call.slack;
      return f;
    });
    // The executable stands in for `node bin/lanes.js`, so only the CLI's own calls are paired.
    const cliCalls = calls.filter((c) => c.argv[0] === CLI).map((c) => ({ what: c.what, args: c.argv.slice(1) }));
    return [...figures, ...exeFigures(cliCalls, rounds)];
  });
}

/**
 * The standalone `lanes` against `node bin/lanes.js`, the same call alternately. Its promise is
 * to start no slower; 1 ms of slack is the noise of one process start on a loaded machine.
 */
function exeFigures(calls: { what: string; args: string[] }[], rounds: number): Figure[] {
  if (!existsSync(EXE)) throw new Error(`bench: ${EXE} is missing; run \`npm run build:exe\` first`);
  const exe = calls.map(() => [] as number[]);
  const node = calls.map(() => [] as number[]);
  for (const call of calls) timed(call.args, EXE);
  for (let i = 0; i < rounds; i++) {
    calls.forEach((call, k) => {
      exe[k]!.push(timed(call.args, EXE));
      node[k]!.push(timed([CLI, ...call.args]));
    });
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
