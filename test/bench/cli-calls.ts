// What a CLI call costs a person at a terminal, against the least any Node program costs: each
// round runs bare `node -e 0` and then each `lanes` call, so every difference is taken between
// calls made moments apart, on the same machine state. Beside them, the native-module check that
// runs before every `npm test` and `npm run bench`, which must stay cheap when it has nothing to do
// (about 200 ms in all on an idle machine, where bare Node takes some 80).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import { CLI, withDaemon } from './lanes-daemon.js';
import { compared, type Figure } from './stats.js';

const SECTION = 'The command line';

function timed(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export function cliFigures(rounds: number): Promise<Figure[]> {
  return withDaemon(async (d) => {
    await d.api('addLane', { name: 'parked', cap: 0 });
    const calls = [
      { what: '`lanes --version`', argv: [CLI, '--version'], slack: 20 },
      { what: '`lanes add -- true`', argv: [CLI, '--data-dir', d.dataDir, 'add', '--lane', 'parked', '--', 'true'], slack: 60 },
      { what: '`lanes status`', argv: [CLI, '--data-dir', d.dataDir, 'status'], slack: 60 },
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
    return calls.map((call, k) => {
      const f = compared(
        { section: SECTION, what: `${call.what}, whole call`, unit: 'ms', target: `≤ bare + ${call.slack} ms` },
        { lanes: lanes[k]!, peer: bare },
        '`node -e 0`',
        'difference',
      );
      f.met = f.compared!.value.median <= call.slack;
      return f;
    });
  });
}
