// `lanes add`: queue one job (its id alone on stdout, so `id=$(lanes add -- …)` just works), or
// many at once from a file of command lines, sent in batches so thousands cost a few requests.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RequestInput } from '../../../shared/requests.js';
import { commandSpec, envPair, jsonValue, seconds, wholeNumber, type JsonArg } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { BATCH_MAX, DEFAULT_LANE, DEFAULT_MAX_ATTEMPTS, MAX_ATTEMPTS_LIMIT } from '../../../shared/limits.js';
import { orderingInput, orderingOptions, type OrderingOptions } from '../ordering.js';

interface AddOptions extends OrderingOptions {
  lane?: string;
  cwd?: string;
  env?: Record<string, string>;
  attempts?: number;
  timeout?: number;
  payload?: JsonArg;
  from?: string;
  shell?: boolean;
  json?: boolean;
}

/** Command lines from a file or stdin: one per line; blank lines and `#` comments skipped. */
function commandLines(from: string): string[] {
  let text: string;
  try {
    text = readFileSync(from === '-' ? 0 : from, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${from === '-' ? 'standard input' : from}: ${(err as Error).message}`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A line of a payload file, as JSON; a line that is not says which one. */
function payloadOf(line: string, n: number, source: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (err) {
    throw new CliError(`line ${n} of ${source} is not JSON (a lane with a worker command takes one JSON payload per line): ${(err as Error).message}`);
  }
}

export function registerAdd(program: Command): void {
  const add = program
    .command('add')
    .description('queue a job; prints its id')
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('[command...]', 'the program and its arguments, after --')
    .option('--lane <name>', `the lane to queue into (default: ${DEFAULT_LANE})`)
    .option('--cwd <dir>', 'run in this directory (default: the current one)')
    .option('--env <key=value>', "add to the job's environment; repeatable", envPair)
    .option('--attempts <n>', `run at most this many times if it fails (default: ${DEFAULT_MAX_ATTEMPTS})`, wholeNumber('--attempts', 1, MAX_ATTEMPTS_LIMIT))
    .option('--timeout <seconds>', "fail a run that takes longer (default: the lane's timeout, if it has one)", seconds('--timeout'))
    .option('--payload <json>', 'for a lane with a worker command: the JSON value to hand it', jsonValue)
    .option('--from <file>', 'queue one job per line of FILE (- for stdin): a shell command line each, or for a lane with a worker command a JSON payload each; prints the ids')
    .option('--shell', 'run the words as one command line in your shell')
    .option('--no-shell', 'run the words as a program and its arguments, even if there is only one')
    .option('--json', 'print {"id": N} (with --from: {"ids": [...]})');
  orderingOptions(add)
    .addHelpText(
      'after',
      '\nOne quoted argument with spaces or shell syntax runs in your shell; several arguments run\n' +
        'as a program without a shell. Examples:\n' +
        '  lanes add -- ffmpeg -i in.mov out.mp4\n' +
        "  lanes add -- 'make -j4 && ./run-tests'\n" +
        '  ls *.wav | sed "s/.*/flac &/" | lanes add --from -\n' +
        'A lane with a worker command takes a JSON payload per job instead:\n' +
        '  lanes lane add words --class ml --cap 1 --worker-command python3 examples/word_stats_worker.py\n' +
        '  lanes add --lane words --payload \'{"text":"hello"}\'\n' +
        'Order and time (`--from FILE` applies them to every line):\n' +
        '  a=$(lanes add -- make); lanes add --after $a -- ./build.sh\n' +
        '  lanes add --delay 2s --label nightly -- ./build.sh\n' +
        '  lanes add --priority 10 -- make',
    )
    .action(async (words: string[], opts: AddOptions, cmd: Command) => {
      const sources = [words.length > 0, opts.payload !== undefined, opts.from !== undefined].filter(Boolean).length;
      if (sources > 1) throw new UsageError('give one of: a command after --, --payload, or --from');
      if (sources === 0) throw new UsageError('no command: put it after --, e.g. lanes add -- echo hello');
      const common = {
        ...(opts.lane !== undefined ? { lane: opts.lane } : {}),
        ...(opts.attempts !== undefined ? { maxAttempts: opts.attempts } : {}),
        ...(opts.timeout !== undefined ? { timeoutSeconds: opts.timeout } : {}),
        ...orderingInput(opts),
      };
      // The engine runs elsewhere; "here" and the extra environment must travel with each job.
      const where = { cwd: resolve(opts.cwd ?? process.cwd()), ...(opts.env ? { env: opts.env } : {}) };
      const client = clientFor(cmd);

      if (opts.from !== undefined) {
        const lines = commandLines(opts.from);
        const source = opts.from === '-' ? 'standard input' : opts.from;
        if (lines.length === 0) throw new UsageError(`no commands in ${source}`);
        // A lane with a worker command takes payloads: then each line is one, as JSON.
        const laneName = opts.lane ?? DEFAULT_LANE;
        const target = (await client.call('status', {})).lanes.find((l) => l.name === laneName);
        const job = target?.workerCommand ? (line: string, n: number) => ({ ...common, payload: payloadOf(line, n, source) }) : (shell: string) => ({ ...common, shell, ...where });
        const ids: number[] = [];
        for (let i = 0; i < lines.length; i += BATCH_MAX) {
          const jobs = lines.slice(i, i + BATCH_MAX).map((line, k) => job(line, i + k + 1));
          ids.push(...(await client.call('addJobs', { jobs })).ids);
        }
        if (opts.json) printJson({ ids });
        else print(ids.join('\n'));
        return;
      }
      const input: RequestInput<'addJob'> =
        opts.payload !== undefined ? { ...common, payload: opts.payload.json } : { ...common, ...commandSpec(words, opts.shell), ...where };
      const { id } = await client.call('addJob', input);
      if (opts.json) printJson({ id });
      else print(String(id));
    });
}
