// `lanes completion bash|zsh|fish`, tried in bash itself: the script registers `complete -F _lanes
// lanes`, and pressing Tab (COMP_WORDS/COMP_CWORD, then _lanes) offers commands, flags, a lane
// asked of a real daemon, and job ids; with no engine, or one that never answers, it offers none
// and returns.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../electron/cli/program.js';
import { ARGUMENT_KINDS, completionSpec } from '../../electron/cli/completion.js';
import { fixedSocketPath } from '../../electron/paths/socket-place.js';
import { ensureBuilt, lanes, ROOT, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';

/** Runs `script` in bash after sourcing the completion, with `lanes` on PATH as the node CLI. */
function bash(bin: string, script: string): { code: number | null; out: string; err: string } {
  const run = spawnSync('bash', ['-c', `source <(lanes completion bash) || exit 9\n${script}`], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/**
 * Types `line` and Tab into an interactive zsh (zsh's own pty module) and waits, bounded by the
 * timeout, until the line reads `expected`: what a person would see. `setup` loads the completion.
 */
function zshTab(bin: string, setup: string, line: string, expected: string): { code: number | null; err: string } {
  const script = [
    'zmodload zsh/zpty',
    'zpty z env TERM=dumb zsh -f -i',
    `zpty -w z 'PS1="> "; autoload -U compinit; compinit -u -D; ${setup}'`,
    `zpty -w -n z $'${line}\\t'`,
    `zpty -r z out '*${expected}*' && exit 0`,
    'exit 1',
  ].join('\n');
  const run = spawnSync('zsh', ['-f', '-c', script], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 30_000 });
  return { code: run.status, err: run.stderr };
}

/** What Tab offers after `line` (the cursor at its end): COMPREPLY, one a line. */
const tab = (line: string) => {
  const words = line.split(' ');
  return `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _lanes; printf '%s\\n' "\${COMPREPLY[@]}"`;
};

describe('lanes completion', () => {
  const tmp = tempDataDir();
  const bin = join(tmp.dir, 'bin');
  let d: TestDaemon;
  let silent: Server | undefined;
  const offered = (line: string) => bash(bin, tab(line)).out.split('\n').filter(Boolean);

  beforeAll(async () => {
    await ensureBuilt();
    mkdirSync(bin);
    writeFileSync(join(bin, 'lanes'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'lanes.js')}" "$@"\n`);
    chmodSync(join(bin, 'lanes'), 0o755);
    d = await startDaemon();
    await d.api('addLane', { name: 'render-farm', cap: 1 });
  }, 60_000);
  afterAll(async () => {
    await d?.stop();
    silent?.close();
    tmp.remove();
  });

  it('registers itself for `lanes` in bash', () => {
    const res = bash(bin, 'complete -p lanes');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toBe('complete -o bashdefault -o default -F _lanes lanes\n');
  });

  it('offers commands, subcommands, flags and choices', () => {
    expect(offered('lanes st')).toEqual(['status']);
    expect(offered('lanes lane ')).toEqual(['add', 'remove']);
    expect(offered('lanes jobs --st')).toEqual(['--state']);
    expect(offered('lanes jobs --state f')).toEqual(['failed']);
    expect(offered('lanes completion ')).toEqual(['bash', 'zsh', 'fish']);
    // Global options after a command, and a flag's value is not taken for the command.
    expect(offered(`lanes --data-dir ${d.dataDir} wai`)).toEqual(['wait']);
  });

  it('offers lane names and job ids from the running engine', async () => {
    const added = await d.cli('add', '--json', '--lane', 'render-farm', '--', 'true');
    const { id } = JSON.parse(added.stdout) as { id: number };
    expect(offered(`lanes --data-dir ${d.dataDir} cap ren`)).toEqual(['render-farm']);
    expect(offered(`lanes --data-dir ${d.dataDir} add --lane ren`)).toEqual(['render-farm']);
    expect(offered(`lanes --data-dir ${d.dataDir} wait `)).toContain(String(id));
    const res = bash(bin, `COMP_WORDS=(lanes --data-dir '${d.dataDir}' cap ''); COMP_CWORD=4; compgen -W "$(_lanes_ask lanes)" -- r`);
    expect(res.out).toBe('render-farm\n');
  });

  it('offers nothing, quickly and quietly, when no engine runs or one never answers', async () => {
    const none = await lanes(['--data-dir', join(tmp.dir, 'none'), '__complete', 'lanes']);
    expect(none).toEqual({ code: 0, stdout: '', stderr: '' });
    // A socket that takes the connection and says nothing.
    const dir = join(tmp.dir, 'mute');
    mkdirSync(dir, { mode: 0o700 });
    silent = createServer(() => {});
    await new Promise<void>((done) => silent!.listen(fixedSocketPath(dir)!, done));
    const mute = await lanes(['--data-dir', dir, '__complete', 'jobs']);
    expect(mute).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(offered(`lanes --data-dir ${dir} log `)).toEqual([]);
  });

  it('completes in zsh, sourced or loaded from $fpath, lanes included', async () => {
    const fpath = join(tmp.dir, 'zsh');
    mkdirSync(fpath);
    writeFileSync(join(fpath, '_lanes'), (await lanes(['completion', 'zsh'])).stdout);
    expect(zshTab(bin, 'source <(lanes completion zsh)', 'lanes stat', 'lanes status ')).toMatchObject({ code: 0 });
    expect(zshTab(bin, `fpath=(${fpath} $fpath); compinit -u -D`, 'lanes stat', 'lanes status ')).toMatchObject({ code: 0 });
    expect(zshTab(bin, 'source <(lanes completion zsh)', `lanes --data-dir ${d.dataDir} cap ren`, 'cap render-farm ')).toMatchObject({ code: 0 });
  });

  it('completes in fish: commands, a lane from the engine (of --data-dir too), job states, a subcommand\'s own flags', () => {
    const fish = (line: string, dataDir = d.dataDir) =>
      spawnSync('fish', ['-c', `lanes completion fish | source; complete -C '${line}'`], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, LANES_DATA_DIR: dataDir }, timeout: 30_000 })
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(fish('lanes stat')).toEqual(['status']);
    expect(fish('lanes snooze ren')).toEqual(['render-farm']);
    expect(fish('lanes jobs --state f')).toEqual(['failed']);
    // The engine of the --data-dir typed, not of the environment.
    const elsewhere = join(tmp.dir, 'no-engine-here');
    expect(fish('lanes snooze ren', elsewhere)).toEqual([]);
    expect(fish(`lanes --data-dir ${d.dataDir} snooze ren`, elsewhere)).toEqual(['render-farm']);
    // `lane add` has its own flags, not `add`'s; and `add`'s are not offered after `lane add`.
    expect(fish('lanes lane add --c').sort()).toEqual(['--cap', '--class']);
    expect(fish('lanes add --c')).toEqual(['--cwd']);
    expect(fish('lanes lane ').sort()).toEqual(['add', 'remove']);
    // A value is not a command: a lane named like one does not make its flags appear.
    expect(fish('lanes jobs --lane add --j')).toEqual(['--json']);
  });

  it('names a command for every argument kind it completes, and prints zsh and fish scripts', async () => {
    const paths = completionSpec(buildProgram()).map((s) => s.path);
    for (const path of Object.keys(ARGUMENT_KINDS)) expect(paths).toContain(path);
    const zsh = await lanes(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/bashcompinit/);
    expect(zsh.stdout).toMatch(/complete -o bashdefault -o default -F _lanes_bash lanes/);
    const fish = await lanes(['completion', 'fish']);
    expect(fish.code).toBe(0);
    for (const command of ['status', 'wait', 'log', 'completion']) expect(fish.stdout).toMatch(new RegExp(`-a ${command} -d`));
    expect(fish.stdout).toMatch(/__lanes_ask jobs/);
    expect((await lanes(['completion', 'tcsh'])).code).toBe(2);
  });
});
