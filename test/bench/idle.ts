// An idle engine: the CPU a real `lanes daemon` takes while nothing happens, read from outside in
// /proc as any process's, against a bare Node process started and read the same way; and, in
// process, what the engine alone takes and the timers it creates (idle-engine.ts runs it in a fresh
// process of its own), labelled so and judging no target: it leaves out the API, the socket and
// the window's port. Windows of a minute (the machine sampler read every 15 s when it was awake;
// a shorter window could fall between two reads), at least three of them in a full run.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import { processUse, withDaemon } from './lanes-daemon.js';
import { compared, summarize, type Figure } from './stats.js';

const SECTION = 'An idle engine';

interface IdleRun {
  cpuMs: number;
  wallMs: number;
  timers: number;
  workers: number;
}

function measure(dataDir: string, seconds: number): IdleRun {
  const out = execFileSync(process.execPath, [join(appRoot, 'dist/test/bench/idle-engine.js'), dataDir, String(seconds)], { encoding: 'utf8' });
  return JSON.parse(out) as IdleRun;
}

/** Start-up settling first: for some seconds after loading its code V8 keeps compiling and collecting, in any Node process. */
const SETTLE_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU of process `pid` over `seconds`, from /proc (10 ms ticks), as a share of one core in %. */
async function cpuPercentOf(pid: number, seconds: number): Promise<number> {
  await sleep(SETTLE_MS);
  const before = processUse(pid).cpuMs;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  return ((processUse(pid).cpuMs - before) / (performance.now() - t0)) * 100;
}

/** A bare Node process that only stays alive, measured from outside as the daemon is. */
async function bareNodePercent(seconds: number): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 2 ** 31 - 1)'], { stdio: 'ignore' });
  try {
    return await cpuPercentOf(child.pid!, seconds);
  } finally {
    child.kill('SIGKILL');
  }
}

/** The daemon a person runs, idle: no jobs, no workers, its API, socket and window port open. */
export async function daemonIdleFigures(pairs: number, seconds: number): Promise<Figure[]> {
  const daemon: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < pairs; i++) {
    daemon.push(await withDaemon((d) => cpuPercentOf(d.pid, seconds)));
    bare.push(await bareNodePercent(seconds));
  }
  const tick = (1 / (seconds * 100)) * 100;
  const f = compared(
    { section: SECTION, what: `\`lanes daemon\` CPU over ${seconds} s with no jobs and no workers, from /proc (${pairs} windows; one 10 ms tick is ${tick.toFixed(3)} %)`, unit: '%', target: '≤ 0.03 %' },
    { lanes: daemon, peer: bare },
    'a bare Node process started and read the same way',
    'difference',
  );
  f.judge = (g) => g.lanes.median <= 0.03;
  f.note = `windows with at least one tick: daemon ${daemon.filter((x) => x > 0).length} of ${pairs}, bare Node ${bare.filter((x) => x > 0).length} of ${pairs}`;
  return [f];
}

export function idleFigures(pairs: number, seconds: number): Figure[] {
  const engine: IdleRun[] = [];
  const bare: IdleRun[] = [];
  for (let i = 0; i < pairs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-idle-'));
    try {
      engine.push(measure(dir, seconds));
      bare.push(measure('-', seconds));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const percent = (r: IdleRun) => (r.cpuMs / r.wallMs) * 100;
  const cpu = compared(
    { section: SECTION, what: `in process (the engine alone, no API, socket or window port): CPU over ${seconds} s with no jobs and no workers (${pairs} windows)`, unit: '%' },
    { lanes: engine.map(percent), peer: bare.map(percent) },
    'a bare Node process measured the same way',
    'difference',
  );
  const timers = summarize(engine.map((r) => r.timers));
  return [
    cpu,
    { section: SECTION, what: `in process: timers created over those ${seconds} s`, unit: 'timers', lanes: timers },
  ];
}
