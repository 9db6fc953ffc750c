// An idle engine: the CPU it takes and the timers it creates while nothing happens, against a bare
// Node process measured the same way (idle-engine.ts runs each in a fresh process of its own), in
// windows of a minute (the machine sampler read every 15 s when it was awake; a shorter window
// could fall between two reads), at least three of them in a full run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
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
    { section: SECTION, what: `CPU over ${seconds} s with no jobs and no workers (${pairs} windows)`, unit: '%', target: '≤ 0.03 %' },
    { lanes: engine.map(percent), peer: bare.map(percent) },
    'a bare Node process measured the same way',
    'difference',
  );
  cpu.judge = (g) => g.lanes.median <= 0.03;
  const timers = summarize(engine.map((r) => r.timers));
  return [
    cpu,
    { section: SECTION, what: `timers created over those ${seconds} s`, unit: 'timers', lanes: timers, target: '≤ 1 per second', judge: (f) => f.lanes.median <= seconds },
  ];
}
