// Every `lanes …` command the project shows a reader works as written: README.md, docs/, the
// examples' own text and every --help. Each sequence of lines shown together (a fenced shell
// block, a docstring, a help text's examples) runs in order in one shell, from a fresh engine
// on a 2-core machine, and every line must exit as shown (0, unless it says `# exits N`); the
// jobs they queue must then succeed. Inline examples run against one engine; synopses and bare
// command names are checked against the CLI's commands and options, and api.md's event table
// against shared/events.ts. The programs the examples name but Lanes does not provide (ffmpeg,
// make …) are stand-ins that succeed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../electron/cli/program.js';
import type { JobPage } from '../../shared/model.js';
import { ROOT, startDaemon, type TestDaemon } from '../support/daemon.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { collect, commandsOf, fromMarkdown, type Example, type Sequence } from './doc-examples.js';

/** Docs written by the benchmarks: their `lanes …` name what was timed, they are not instructions. */
const GENERATED: Record<string, string> = {
  'docs/benchmarks.md': 'written by `npm run bench`',
  'docs/benchmarks-window.md': 'written by the window benchmark (test/ui/bulk-bench.spec.ts)',
};

/** The placeholders the docs use, and what stands in for them here. */
const PLACEHOLDERS: [RegExp, (w: World) => string][] = [
  [/--port N\b/g, (w) => `--port ${w.port}`],
  // docs/shared-lanes.md's server: a redis-server of the test's own, with the password the page shows.
  [/@server:6379\b/g, () => `@127.0.0.1:${redis!.port}`],
  [/\bID\b/g, (w) => String(w.jobId)], // a job that exists and succeeded
  [/\bLANE\b/g, () => 'worker'],
  [/\bFILE\b/g, () => 'jobs.txt'], // one command line per line
  [/\bSPAN\b/g, () => '30m'],
  [/\bN\b/g, () => '2'],
];

/**
 * Commands that never return on their own are started, allowed to print their first line, then
 * stopped with SIGTERM, and must exit 0. A `lanes daemon` gets a data directory of its own.
 */
const NEVER_RETURNS = /\blanes\s+daemon\b|--follow\b/;

/** Programs the examples run that Lanes does not provide: stand-ins that succeed. */
const STAND_INS = ['ffmpeg', 'make', 'flac', 'xdg-open'];
/** Files the examples expect in the directory they are typed in. */
const WORKING_FILES: Record<string, string> = {
  'in.mov': '',
  'a.wav': '',
  'b.wav': '',
  'jobs.txt': 'true\n',
  'build.sh': '#!/bin/sh\nexit 0\n',
  'run-tests': '#!/bin/sh\nexit 0\n',
};

interface World {
  root: string;
  /** Where the examples are typed: WORKING_FILES, and examples/ as in the repository. */
  cwd: string;
  env: Record<string, string>;
  daemon: TestDaemon;
  jobId: number;
  port: number;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

async function openWorld(): Promise<World> {
  const root = mkdtempSync(join(tmpdir(), 'lanes-docs-'));
  const bin = join(root, 'bin');
  const cwd = join(root, 'work');
  mkdirSync(bin);
  mkdirSync(cwd);
  // `lanes` and `npx lanes` as a reader has them, bound to this repository's build.
  script(join(bin, 'lanes'), `exec "${process.execPath}" "${join(ROOT, 'bin', 'lanes.js')}" "$@"`);
  script(join(bin, 'npx'), `[ "$1" = lanes ] || { echo "npx: only lanes here" >&2; exit 127; }\nshift\nexec lanes "$@"`);
  for (const name of STAND_INS) script(join(bin, name), 'exit 0');
  for (const [name, text] of Object.entries(WORKING_FILES)) writeFileSync(join(cwd, name), text, { mode: 0o755 });
  symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'));
  // The engine's PATH is its jobs' PATH: they find the stand-ins too.
  const env = { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, LANES_CORES: '2' };
  const daemon = await startDaemon({ env });
  const added = await daemon.cli('add', '--', 'true');
  const jobId = Number(added.stdout.trim());
  expect(added.code).toBe(0);
  expect((await daemon.cli('wait', String(jobId))).code).toBe(0);
  return {
    root,
    cwd,
    env: { ...env, LANES_DATA_DIR: daemon.dataDir },
    daemon,
    jobId,
    port: await freePort(),
    async close() {
      await daemon.stop();
      rmSync(daemon.dataDir, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const withPlaceholders = (line: string, w: World): string => PLACEHOLDERS.reduce((l, [pattern, value]) => l.replace(pattern, value(w)), line);

interface Ran {
  example: Example;
  code: number | null;
}

/** Runs the lines in one bash, in `w.cwd`, noting each line's exit status. */
async function runInShell(examples: Example[], w: World): Promise<{ ran: Ran[]; output: string }> {
  const statusFile = join(w.root, 'status');
  writeFileSync(statusFile, '');
  const lines = examples.flatMap((e) => [
    `printf '\\n[%s]\\n' ${JSON.stringify(e.where)}; printf '\\n[%s]\\n' ${JSON.stringify(e.where)} >&2`,
    withPlaceholders(e.line, w),
    `echo $? >> "${statusFile}"`,
  ]);
  const child = spawn('bash', ['-c', lines.join('\n')], { cwd: w.cwd, env: { ...process.env, ...w.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise((done) => child.on('close', done));
  const codes = readFileSync(statusFile, 'utf8').split('\n').filter(Boolean).map(Number);
  return { ran: examples.map((example, i) => ({ example, code: codes[i] ?? null })), output };
}

/** Starts a command that runs until stopped; resolves with its exit status after SIGTERM. */
async function runBounded(example: Example, w: World): Promise<{ code: number | null; first: string; output: string }> {
  const own = mkdtempSync(join(tmpdir(), 'lanes-docs-daemon-'));
  const line = withPlaceholders(example.line, w)
    .replace(/\s#.*$/, '')
    .replace(/&\s*$/, '');
  const env = { ...process.env, ...w.env, ...(/\bdaemon\b/.test(line) ? { LANES_DATA_DIR: own } : {}) };
  // exec: the signal reaches lanes itself, not a shell around it.
  const child = spawn('bash', ['-c', `exec ${line}`], { cwd: w.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let first = '';
  const printed = new Promise<void>((done) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      first ||= output.split('\n')[0]!;
      done();
    });
    child.on('close', () => done());
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise<number | null>((done) => child.on('close', done));
  await printed;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await closed;
  clearTimeout(killer);
  rmSync(own, { recursive: true, force: true });
  return { code, first, output };
}

/** Waits for every job the examples queued; none may be left waiting or have failed. */
async function jobsOutcome(w: World): Promise<string[]> {
  const page = JSON.parse((await w.daemon.cli('jobs', '--limit', '1000', '--json')).stdout) as JobPage;
  const unfinished = page.jobs.filter((j) => j.state === 'queued' || j.state === 'running').map((j) => String(j.id));
  if (unfinished.length > 0) {
    const waiting = w.daemon.spawn('wait', ...unfinished);
    const timer = setTimeout(() => waiting.child.kill('SIGTERM'), 30_000);
    await waiting.done;
    clearTimeout(timer);
  }
  const after = JSON.parse((await w.daemon.cli('jobs', '--limit', '1000', '--json')).stdout) as JobPage;
  return after.jobs.filter((j) => j.state !== 'succeeded').map((j) => `job ${j.id} (${j.lane}: ${j.command}) is ${j.state}`);
}

const found = collect(ROOT, buildProgram());
const shown = (e: { where: string }) => !(e.where.split(':')[0]! in GENERATED);
const sequences = found.sequences.filter(shown);
const inline = found.inline.filter(shown);
const synopses = found.synopses.filter(shown);

const commands = new Map(commandsOf(buildProgram()));
/** A bare command name (`lanes add`) refers to the command; it is checked, not run. */
const isName = (e: Example) => commands.has(e.line.replace(/^(npx\s+)?lanes\s+/, ''));
const failures = (ran: Ran[]) => ran.filter((r) => r.code !== r.example.exits).map((r) => `${r.example.where}: \`${r.example.line}\` exited ${r.code}, documented ${r.example.exits}`);

/** Each `--option` in a synopsis is an option of its command (or a global one). */
function synopsisProblems(e: Example): string[] {
  const words = e.line.replace(/^(npx\s+)?lanes\s*/, '').split(/[\s[\]]+|\\\|/).filter(Boolean);
  let name = '';
  for (let n = words.length; n > 0; n--) {
    if (commands.has(words.slice(0, n).join(' '))) {
      name = words.slice(0, n).join(' ');
      break;
    }
  }
  if (!name && words.length > 0 && /^[a-z]/.test(words[0]!) && words[0] !== '…') return [`${e.where}: \`${e.line}\`: no command "${words[0]}"`];
  const known = new Set(['--help', '--data-dir', '--version', ...(commands.get(name)?.options ?? []).map((o) => o.long)]);
  return words.filter((w) => /^--[a-z]/.test(w) && !known.has(w)).map((w) => `${e.where}: \`${e.line}\`: \`lanes ${name}\` has no option ${w}`);
}

/** The Redis that docs/shared-lanes.md's examples join (started once for the file). */
let redis: RedisServer | null = null;
const REDIS_PASSWORD = 'a-long-random-password';

describe('every documented `lanes` command works as written', () => {
  beforeAll(async () => {
    redis = await startRedis({ password: REDIS_PASSWORD });
  });
  afterAll(async () => {
    await redis?.remove();
  });

  it('finds the examples where a reader sees them', () => {
    const lines = [...sequences.flatMap((s) => s.examples), ...inline].map((e) => `${e.where.split(':')[0]}  ${e.line}`);
    expect(lines).toContainEqual(expect.stringMatching(/^README\.md {2}npx lanes cap worker 3/));
    expect(lines).toContain('docs/worker-protocol.md  lanes lane add words --class ml --cap 1 --worker-command python3 examples/word_stats_worker.py');
    expect(lines).toContain('examples/word_stats_worker.py  lanes lane add words --class ml --cap 1 --worker-command python3 examples/word_stats_worker.py');
    expect(lines).toContainEqual(expect.stringMatching(/^lanes add --help {2}lanes add --lane words --payload/));
    expect(lines).toContain('docs/worker-protocol.md  lanes show ID --json');
    expect(synopses.length).toBeGreaterThan(10);
  });

  it('reads shell fences as sequences, inline code one by one, and shapes as synopses', () => {
    const doc = [
      'Set `lanes cap worker 2`, see `lanes add`, shape `lanes log ID [--follow]`.',
      '```sh',
      'id=$(npx lanes add -- true)   # prints its id',
      'echo between',
      'lanes wait "$id"              # exits 1',
      '```',
      '```json',
      'lanes status',
      '```',
    ].join('\n');
    expect(fromMarkdown(doc, 'x.md')).toEqual({
      sequences: [
        {
          where: 'x.md:2',
          examples: [
            { where: 'x.md:3', line: 'id=$(npx lanes add -- true)   # prints its id', exits: 0 },
            { where: 'x.md:5', line: 'lanes wait "$id"              # exits 1', exits: 1 },
          ],
        },
      ],
      inline: [
        { where: 'x.md:1', line: 'lanes cap worker 2', exits: 0 },
        { where: 'x.md:1', line: 'lanes add', exits: 0 },
      ],
      synopses: [{ where: 'x.md:1', line: 'lanes log ID [--follow]', exits: 0 }],
    });
  });

  it("api.md's table of live events has a row for every event in shared/events.ts", () => {
    const contract = readFileSync(join(ROOT, 'shared', 'events.ts'), 'utf8');
    const map = contract.slice(contract.indexOf('interface EventMap {'), contract.indexOf('\n}\n', contract.indexOf('interface EventMap {')));
    const events = [...map.matchAll(/^ {2}(\w+):/gm)].map((m) => m[1]);
    const api = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8').split(/^## /m).find((section) => section.startsWith('Live events'))!;
    const rows = [...api.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(events.length).toBeGreaterThan(5);
    for (const event of events) expect(rows, `docs/api.md: no row for the \`${event}\` event`).toContain(event);
  });

  it('every synopsis and command name matches the CLI', () => {
    const problems = [...synopses, ...inline.filter(isName)].flatMap(synopsisProblems);
    expect(problems).toEqual([]);
  });

  for (const sequence of sequences) {
    it(`${sequence.where}: runs in order from a fresh engine`, async () => {
      const { failed, notSucceeded, output } = await runSequence(sequence);
      expect(failed, output).toEqual([]);
      expect(notSucceeded, output).toEqual([]);
    });
  }

  it('inline examples run (each once), against one engine', async () => {
    const once = new Map<string, Example>();
    for (const e of inline) if (!isName(e) && !NEVER_RETURNS.test(e.line) && !once.has(e.line)) once.set(e.line, e);
    // The lane the shared-lanes page queues into, here a local one: joining Redis is its fenced examples' part.
    const setup: Example = { where: 'setup', line: 'lanes lane add render --cap 1', exits: 0 };
    const { failed, notSucceeded, output } = await runSequence({ where: 'inline', examples: [setup, ...once.values()] }, async (w) => {
      // A broken example is caught, not passed over.
      const { ran } = await runInShell([{ where: 'canary', line: 'lanes cap no-such-lane 3', exits: 0 }], w);
      expect(failures(ran)).toEqual(['canary: `lanes cap no-such-lane 3` exited 1, documented 0']);
    });
    expect(failed, output).toEqual([]);
    expect(notSucceeded, output).toEqual([]);
  });

  it('commands that run until stopped start, print, and exit 0 on SIGTERM', async () => {
    const all = [...sequences.flatMap((s) => s.examples), ...inline].filter((e) => NEVER_RETURNS.test(e.line) && !isName(e));
    const once = new Map(all.map((e) => [e.line.replace(/\s*(&\s*)?(#.*)?$/, ''), e]));
    expect(once.size).toBeGreaterThan(0);
    const w = await openWorld();
    try {
      for (const e of once.values()) {
        const { code, first, output } = await runBounded(e, w);
        expect(first, `${e.where}: \`${e.line}\` printed nothing\n${output}`).not.toBe('');
        expect(code, `${e.where}: \`${e.line}\` exited ${code} when stopped\n${output}`).toBe(0);
      }
    } finally {
      await w.close();
    }
  });

  it('the example worker says when it has loaded, and its first job shows the load apart', async () => {
    const w = await openWorld();
    try {
      const docstring = sequences.find((s) => s.where.startsWith('examples/word_stats_worker.py'))!;
      const { ran, output } = await runInShell(docstring.examples, w);
      expect(failures(ran), output).toEqual([]);
      const page = JSON.parse((await w.daemon.cli('jobs', '--lane', 'words', '--json')).stdout) as JobPage;
      const id = String(page.jobs[0]!.id);
      expect((await w.daemon.cli('wait', id)).code).toBe(0);
      const job = JSON.parse((await w.daemon.cli('show', id, '--json')).stdout) as { loadMs: number | null };
      expect(job.loadMs).toEqual(expect.any(Number));
    } finally {
      await w.close();
    }
  });
});

/** Runs a sequence in a fresh world; says which lines failed and which of their jobs did not succeed. */
async function runSequence(sequence: Sequence, then?: (w: World) => Promise<void>): Promise<{ failed: string[]; notSucceeded: string[]; output: string }> {
  const w = await openWorld();
  try {
    // `lanes daemon &` in a sequence is the engine this world already runs; it is started on its own above.
    const examples = sequence.examples.filter((e) => !NEVER_RETURNS.test(e.line));
    const { ran, output } = await runInShell(examples, w);
    const result = { failed: failures(ran), notSucceeded: await jobsOutcome(w), output };
    await then?.(w);
    return result;
  } finally {
    await w.close();
  }
}
