// A call that names a command builds only that command's group (program.ts): the table of groups
// must name every command the full program has, each group must hold the commands it is named
// for, and a call must answer as it would with every command built — its help, its usage errors,
// and the words around it (global options before it, `help`, a typo) included.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, commandNames, commandOf } from '../../electron/cli/program.js';
import { ensureBuilt, ROOT } from '../support/daemon.js';

const names = (program: ReturnType<typeof buildProgram>) => program.commands.map((c) => c.name());

describe('commands built by the group a call names', () => {
  it('the table names exactly the full program’s commands, in its order', () => {
    expect(commandNames).toEqual(names(buildProgram()));
  });

  it.each(commandNames)('%s: its group holds it, and only its group is built', (name) => {
    const built = names(buildProgram(name));
    expect(built).toContain(name);
    expect(built.length).toBeLessThan(commandNames.length);
  });

  it.each(commandNames)('%s: its help is the same as with every command built', (name) => {
    const help = (program: ReturnType<typeof buildProgram>) => program.commands.find((c) => c.name() === name)!.helpInformation();
    expect(help(buildProgram(name))).toBe(help(buildProgram()));
  });

  it('no command, or a word that is none, builds every command', () => {
    for (const word of [null, 'help', 'stauts', '--help']) expect(names(buildProgram(word))).toEqual(commandNames);
  });

  it.each([
    [['status'], 'status'],
    [['--data-dir', '/tmp/x', 'status'], 'status'],
    [['--data-dir=/tmp/x', 'add', '--', 'true'], 'add'],
    [['lane', 'add', 'w'], 'lane'],
    [['--data-dir', 'status'], null],
    [['--json'], null],
    [[], null],
    [['-V'], null],
  ])('%j names %s', (argv, expected) => {
    expect(commandOf(argv)).toBe(expected);
  });
});

describe('a call answers as with every command built', () => {
  beforeAll(ensureBuilt, 120_000);
  const lanes = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'bin', 'lanes.js'), ...args], { encoding: 'utf8', env: { ...process.env, LANES_DATA_DIR: join(ROOT, 'no-such-dir') } });

  it('a command’s help and a usage error name the program and its global option', () => {
    const help = lanes('status', '--help');
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('Usage: lanes status')]);
    const bad = lanes('cap', 'worker');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^lanes: missing required argument/);
  });

  it('a mistyped command is told the nearest one, and `help X` is that command’s help', () => {
    const typo = lanes('stauts');
    expect([typo.status, typo.stderr]).toEqual([2, expect.stringContaining('(Did you mean status?)')]);
    const help = lanes('help', 'add');
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('Usage: lanes add')]);
  });
});
