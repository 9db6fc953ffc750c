// `lanes progress 12000/40000 "embedding"`: a shell job saying how far it has got. It speaks to
// the worker that runs it, over the socket its environment names (never to the engine), and
// whatever the worker makes of it, the job goes on: a report not heard is said on stderr, with
// exit 0, so a script runs the same inside Lanes and out of it.
import type { Command } from 'commander';
import { createConnection } from 'node:net';
import { PROGRESS_MESSAGE_MAX_CHARS, progressFromArgs, type ProgressReport } from '../../../shared/progress.js';
import { PROGRESS_ENV } from '../../worker-protocol/protocol.js';
import { note } from '../context.js';
import { UsageError } from '../errors.js';

/** The worker answers at once; one that does not within this is not waited on. */
const ANSWER_WAIT_MS = 2_000;

export function registerProgress(program: Command): void {
  program
    .command('progress')
    .description('inside a job: say how far it has got (12000/40000, 30% or 0.3), with a few words')
    .argument('<amount>', 'DONE/TOTAL, a percentage or a fraction from 0 to 1')
    .argument('[message...]', `a few words on what it is doing (at most ${PROGRESS_MESSAGE_MAX_CHARS} characters are kept)`)
    .action(async (amount: string, words: string[]) => {
      const reading = progressFromArgs(amount, words);
      if (!reading.ok) throw new UsageError(reading.why);
      const socket = process.env[PROGRESS_ENV.socket];
      const token = process.env[PROGRESS_ENV.token];
      if (!socket || !token) {
        // In a job whose worker could not open its socket (the engine's log says why), or in none.
        if (process.env.LANES_JOB_ID) return note(`lanes: progress not reported: the worker running job ${process.env.LANES_JOB_ID} cannot hear it (the engine's log says why)`);
        return note(`lanes: not inside a Lanes shell job (${PROGRESS_ENV.socket} is not set); progress not reported`);
      }
      const answer = await tell(socket, token, reading.report);
      if (answer !== 'ok') note(`lanes: progress not reported: ${answer.replace(/^ignored: /, '')}`);
    });
}

/** One line out, one line back: the worker's answer, or why there was none. */
function tell(path: string, token: string, progress: ProgressReport): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const conn = createConnection(path);
    const done = (answer: string) => {
      conn.destroy();
      resolve(answer);
    };
    conn.setEncoding('utf8');
    conn.setTimeout(ANSWER_WAIT_MS, () => done('its worker did not answer'));
    conn.on('connect', () => conn.write(`${JSON.stringify({ token, progress })}\n`));
    conn.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) done(text.slice(0, text.indexOf('\n')));
    });
    conn.on('error', (e) => done(`its worker cannot be reached (${e.message})`));
    conn.on('end', () => done(text.trim() || 'its worker closed the line without answering'));
  });
}
