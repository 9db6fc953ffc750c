// Which shell a command line runs in, and that it runs in its job's cgroup from its first
// instruction: /bin/sh unless LANES_SHELL names another, never the $SHELL the engine was started
// from; the line sees the shell as $0, no positional parameters and no variable of Lanes', keeps
// its exit status and its syntax errors. Real engines, real workers, real shells.
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Engine, EngineOptions } from '../../electron/engine/index.js';
import { ownCgroup } from '../../electron/job-control/containment.js';
import { findOnPath } from '../support/redis.js';
import { enginesEachTest, jobsFinished, tempDir } from '../support/engine.js';

const saved = { SHELL: process.env.SHELL, LANES_SHELL: process.env.LANES_SHELL };
const started = enginesEachTest();
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** An engine whose workers start with `env` (workers inherit the engine's environment). */
async function engineWith(env: Record<string, string | undefined>, o: Partial<EngineOptions> = {}): Promise<Engine> {
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return started(tempDir(), { cores: 3, ...o });
}

/** Runs one command line and answers its outcome and what it printed. */
async function line(engine: Engine, shell: string): Promise<{ state: string; exitCode: number | null; out: string; err: string }> {
  const { id } = await engine.request('addJob', { shell, maxAttempts: 1 });
  const [job] = await jobsFinished(engine, [id]);
  const out = (await engine.request('logTail', { id })).text;
  const err = (await engine.request('logTail', { id, stream: 'stderr' })).text;
  return { state: job!.state, exitCode: job!.exitCode, out, err };
}

const bash = findOnPath('bash');
const fish = findOnPath('fish');
const cgroupModes = [
  { name: 'in a cgroup per job', cgroups: true, skip: ownCgroup() === null },
  { name: 'without cgroups', cgroups: false, skip: false },
];

for (const mode of cgroupModes) {
  describe.skipIf(mode.skip)(`a command line, ${mode.name}`, () => {
    it.skipIf(bash === null)('runs under /bin/sh even when the engine was started from bash', async () => {
      const engine = await engineWith({ SHELL: bash!, LANES_SHELL: undefined }, { cgroups: mode.cgroups });
      const r = await line(engine, 'readlink /proc/$$/exe; echo "$0|$#|${__lanes_line-none}"');
      expect(r).toMatchObject({ state: 'succeeded', exitCode: 0 });
      expect(r.out).toBe(`${realpathSync('/bin/sh')}\n/bin/sh|0|none\n`);
    });

    it('keeps its exit status, its exit, its syntax errors and a program not found', async () => {
      const engine = await engineWith({ LANES_SHELL: undefined }, { cgroups: mode.cgroups });
      expect(await line(engine, 'false || exit 3')).toMatchObject({ state: 'failed', exitCode: 3 });
      const broken = await line(engine, 'if then fi (');
      expect(broken).toMatchObject({ state: 'failed', exitCode: 2 });
      expect(broken.err).toMatch(/syntax error/i);
      // A line of plain words naming no program fails as under `sh -c`: 127, said on stderr.
      const missing = await line(engine, 'no-such-program-here --flag');
      expect(missing).toMatchObject({ state: 'failed', exitCode: 127 });
      expect(missing.err).toMatch(/no-such-program-here: not found/);
      expect((await line(engine, '/usr/bin/printf %s, plain words')).out).toBe('plain,words,');
      // A line that quotes, expands and redirects means what it means under `sh -c`.
      expect((await line(engine, `x='a  b'; printf '%s|' "$x" $x; echo "\${#x}"`)).out).toBe('a  b|a|b|4\n');
    });

    it('a line of plain words runs its program as sh would, a script with no #! line included', async () => {
      const engine = await engineWith({ LANES_SHELL: undefined }, { cgroups: mode.cgroups });
      const { dir, cleanup } = tempDir();
      onTestFinished(cleanup);
      // No #! line: exec refuses it (ENOEXEC), and sh runs it as a script of its own.
      writeFileSync(join(dir, 'bare-script'), 'echo "ran as $0 with $#: $1"\nexit 4\n', { mode: 0o755 });
      const r = await line(engine, `${join(dir, 'bare-script')} one`);
      expect(r).toMatchObject({ state: 'failed', exitCode: 4, out: `ran as ${join(dir, 'bare-script')} with 1: one\n` });
      // The program sees the name it was given, not where it was found.
      expect((await line(engine, 'cat /proc/self/cmdline')).out).toBe('cat\0/proc/self/cmdline\0');
      expect(await line(engine, 'head -c 0 /nonexistent-file-here')).toMatchObject({ state: 'failed', exitCode: 1 });
    });

    it.skipIf(bash === null)('LANES_SHELL names another shell', async () => {
      const engine = await engineWith({ LANES_SHELL: bash! }, { cgroups: mode.cgroups });
      const r = await line(engine, 'echo "$BASH_VERSION" | cut -c1; echo "$0"');
      expect(r.out).toMatch(/^\d\n/);
      expect(r.out.split('\n')[1]).toBe(bash);
    });

    it.skipIf(fish === null)('a shell that does not read POSIX lines (fish) still runs the line', async () => {
      const engine = await engineWith({ LANES_SHELL: fish! }, { cgroups: mode.cgroups });
      const r = await line(engine, 'set -l greeting hello; echo $greeting (count $argv)');
      expect(r).toMatchObject({ state: 'succeeded', out: 'hello 0\n' });
    });
  });
}

describe.skipIf(ownCgroup() === null)('the cgroup of a command line', () => {
  // The shell's own cgroup ($$ is the shell, not the cat it starts): it is in the job's before it reads a word of the line.
  for (const [what, shell, read] of [
    ['/bin/sh', undefined, 'cat /proc/$$/cgroup'],
    ['/bin/sh, a line of plain words the shell execs', undefined, 'cat /proc/self/cgroup'],
    ['bash', bash, 'cat /proc/$$/cgroup'],
    ['fish', fish, 'cat /proc/$fish_pid/cgroup'],
  ] as const) {
    it.skipIf(shell === null)(`is the job's own, the shell's included (${what})`, async () => {
      const engine = await engineWith({ LANES_SHELL: shell ?? undefined }, { cgroups: true });
      const { id } = await engine.request('addJob', { shell: read, maxAttempts: 1 });
      const [job] = await jobsFinished(engine, [id]);
      expect(job!.state).toBe('succeeded');
      const own = (await engine.request('logTail', { id })).text.split('\n').find((l) => l.startsWith('0::'));
      expect(own).toMatch(new RegExp(`/lanes-\\d+/job-${id}-1$`));
    });
  }
});
