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
import { engineSocketPath } from '../../electron/paths/private-dir.js';
import { ensureBuilt, lanes, ROOT, startDaemon, tempDataDir, type TestDaemon } from '../support/daemon.js';

/** Runs `script` in bash after sourcing the completion, with `lanes` on PATH as the node CLI. */
function bash(bin: string, script: string): { code: number | null; out: string; err: string } {
  const run = spawnSync('bash', ['-c', `source <(lanes completion bash) || exit 9\n${script}`], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
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
    await new Promise<void>((done) => silent!.listen(engineSocketPath(dir), done));
    const mute = await lanes(['--data-dir', dir, '__complete', 'jobs']);
    expect(mute).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(offered(`lanes --data-dir ${dir} log `)).toEqual([]);
  });

  it('names a command for every argument kind it completes, and prints zsh and fish scripts', async () => {
    const paths = completionSpec(buildProgram()).map((s) => s.path);
    for (const path of Object.keys(ARGUMENT_KINDS)) expect(paths).toContain(path);
    const zsh = await lanes(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/bashcompinit/);
    expect(zsh.stdout).toMatch(/complete -o bashdefault -o default -F _lanes lanes/);
    const fish = await lanes(['completion', 'fish']);
    expect(fish.code).toBe(0);
    for (const command of ['status', 'wait', 'log', 'completion']) expect(fish.stdout).toMatch(new RegExp(`-a ${command} -d`));
    expect(fish.stdout).toMatch(/__complete jobs/);
    expect((await lanes(['completion', 'tcsh'])).code).toBe(2);
  });
});
