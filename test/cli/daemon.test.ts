// `lanes daemon` itself, and the CLI when no engine answers: how to start one, stale files,
// one engine per data directory, a graceful stop, and a CLI that rides out a restart.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lanes, spawnLanes, startDaemon, tempDataDir } from '../support/daemon.js';

describe('lanes daemon', () => {
  const tmp = tempDataDir();
  const work = tempDataDir('lanes-work-');
  beforeAll(() => ensureBuilt());
  afterAll(() => {
    tmp.remove();
    work.remove();
  });

  it('says how to start an engine when none is running, exit 1', async () => {
    const empty = join(tmp.dir, 'empty');
    for (const args of [['status'], ['add', '--', 'true'], ['wait', '1'], ['open']]) {
      const res = await lanes(['--data-dir', empty, ...args]);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toMatch(/no Lanes engine is running/);
      expect(res.stderr).toMatch(/lanes daemon/);
      expect(res.stdout).toBe('');
    }
  });

  it('says no engine runs when one died, whatever daemon.json it left', async () => {
    const dir = join(tmp.dir, 'stale');
    const d = await startDaemon({ dataDir: dir });
    const info = readFileSync(join(dir, 'daemon.json'), 'utf8');
    await d.stop();
    // As if the engine had been killed before it could tidy up.
    writeFileSync(join(dir, 'daemon.json'), info);
    const res = await lanes(['status', '--data-dir', dir]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no Lanes engine is running .*nothing listens there/);
  });

  it('uses LANES_DATA_DIR, refuses a second engine on the same directory, stops on SIGTERM', async () => {
    const dir = join(tmp.dir, 'main');
    const d = await startDaemon({ dataDir: dir });
    // Where the window is, and how to open it: never its token, which a service's journal would keep.
    expect(d.process.stdout()).toBe(`Window: http://127.0.0.1:${d.info.port}/ — open it with \`lanes open\` (add --browser to open it in your browser)\n`);
    expect(d.process.stdout() + d.process.stderr()).not.toContain(d.token);
    const viaEnv = await lanes(['status', '--json'], { env: { LANES_DATA_DIR: dir } });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toMatchObject({ ceiling: 2 });

    const second = await lanes(['daemon', '--data-dir', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(String(d.info.pid));
    // Since when, in the one time format of the CLI (24-hour), not the locale's.
    expect(second.stderr).toMatch(new RegExp(`pid ${d.info.pid}, running since (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d:\\d\\d\\)`));
    // The first one is untouched.
    expect(JSON.parse(readFileSync(join(dir, 'daemon.json'), 'utf8'))).toMatchObject({ pid: d.info.pid });

    expect(await d.stop()).toBe(0);
    expect(d.process.stderr()).toMatch(/Stopped/);
    expect(existsSync(join(dir, 'daemon.json'))).toBe(false);
    expect(existsSync(join(dir, 'engine.sock'))).toBe(false);
  });

  it('refuses a bad or busy --port', async () => {
    const dir = join(tmp.dir, 'ports');
    expect((await lanes(['daemon', '--data-dir', dir, '--port', 'http'])).code).toBe(2);
    const d = await startDaemon({ dataDir: dir });
    const busy = await lanes(['daemon', '--data-dir', join(tmp.dir, 'ports-2'), '--port', String(d.info.port)]);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/already in use/);
    await d.stop();
  });

  it('keeps queued work across a restart, with a new token; wait rides it out', async () => {
    const dir = join(tmp.dir, 'restart');
    const gate = join(work.dir, 'restart-gate');
    // No grace: the gated job is stopped mid-run and must run again after the restart.
    let d = await startDaemon({ dataDir: dir, args: ['--grace', '0'] });
    const quick = (await d.cli('add', '--', 'true')).stdout.trim();
    expect((await d.cli('wait', quick)).code).toBe(0);
    const id = (await d.cli('add', '--', `while [ ! -f "${gate}" ]; do sleep 0.05; done; echo through`)).stdout.trim();
    const queued = (await d.cli('add', '--', 'echo', 'queued')).stdout.trim();
    const waiting = d.spawn('wait', quick, id, queued);
    // It reports the finished one as soon as its event stream is open: then it is listening.
    await waiting.line(new RegExp(`^job ${quick}: succeeded`));
    const token = d.token;
    expect(await d.stop()).toBe(0);
    // The stop names the job that will start over, and ends on a plain line.
    const said = await d.process.done;
    expect(said.stderr).toMatch(new RegExp(`stopping: job ${id} \`while .*\` \\(running \\d+ s\\) did not finish in time and will start over at the next start`));
    expect(said.stderr.trimEnd().split('\n').at(-1)).toBe('Stopped.');
    d = await startDaemon({ dataDir: dir });
    expect(d.token).not.toBe(token);
    writeFileSync(gate, '');
    const done = await waiting.done;
    expect(done.stderr).not.toMatch(/no Lanes engine/);
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(new RegExp(`job ${id}: succeeded`));
    // Given back at the stop, it ran again as its second attempt: the log keeps the line between.
    expect((await d.cli('log', id)).stdout).toMatch(/^── attempt 2 · [\d:]+ ──\nthrough\n$/);
    await d.stop();
  });

  it('exits 2 with usage for unknown commands and options', async () => {
    const unknown = await lanes(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command/);
    expect((await lanes(['status', '--bogus'])).code).toBe(2);
    const help = spawnLanes(['--help']);
    expect((await help.done).code).toBe(0);
    expect(help.stdout()).toMatch(/Exit codes/);
  });
});
