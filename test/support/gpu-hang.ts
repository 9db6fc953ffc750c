// A nvidia-smi that hangs with a child holding its output (test/fixtures/gpu/nvidia-smi-hangs),
// and a count of the processes it left, found by its directory in their argv (/proc, Linux).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../electron/engine/machine/gpu-reader.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'gpu');

export interface HangingGpu {
  /** Holds nvidia-smi: put it first on PATH. */
  bin: string;
  file: string;
  apps: string;
  /** From now on it hangs: 'hang' never answers, 'exit' answers nothing and exits, its child left holding the output. */
  hang(how?: 'hang' | 'exit'): void;
  /** Its processes alive now (zombies, whose argv is gone, not counted). */
  processes(): number;
  /** Of those, the hanging ones: two a call once it hangs (the call itself and its child). */
  hanging(): number;
  calls(): string[];
}

export function hangingGpu(dir: string, cards: string[]): HangingGpu {
  const bin = join(dir, 'gpu-bin');
  mkdirSync(join(bin, 'apps'), { recursive: true });
  copyFileSync(join(fixtures, 'nvidia-smi-hangs'), join(bin, 'nvidia-smi'));
  copyFileSync(join(fixtures, 'nvidia-smi'), join(bin, 'answers'));
  symlinkSync(findOnPath('sleep', process.env.PATH)!, join(bin, 'hold'));
  writeFileSync(join(bin, 'cards'), cards.map((c) => `${c}\n`).join(''));
  const marker = `${bin}/`;
  return {
    bin,
    file: join(bin, 'nvidia-smi'),
    apps: join(bin, 'apps'),
    hang: (how = 'hang') => writeFileSync(join(bin, 'hang'), how === 'exit' ? 'exit' : ''),
    processes: () => countArgv(marker),
    hanging: () => countArgv(`${marker}hold\0`),
    calls: () => {
      try {
        return readFileSync(join(bin, 'calls'), 'utf8').split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
  };
}

/** Processes whose argv holds `marker`. */
export function countArgv(marker: string): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) n++;
    } catch {
      // Gone meanwhile.
    }
  }
  return n;
}
