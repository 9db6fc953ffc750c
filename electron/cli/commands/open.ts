// `lanes open`: the window's address, token included. Printing is the default because the
// token is a secret: opening a browser is something the person asks for with --browser.
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { clientFor, note, print } from '../context.js';
import { CliError } from '../errors.js';

/** The platform's own "open this URL" program; no shell, so the URL is one plain argument. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

export function registerOpen(program: Command): void {
  program
    .command('open')
    .description("print the window's address (with its token); --browser opens it")
    .option('--browser', 'open it in your default browser')
    .action(async (opts: { browser?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      // Ask the engine first, so a stale daemon.json is reported instead of opening a dead page.
      await client.call('status', {});
      const url = `${client.connection.info.url}#token=${client.connection.token}`;
      print(url);
      if (!opts.browser) return;
      const [program, args] = opener(url);
      await new Promise<void>((done, reject) => {
        const child = spawn(program, args, { stdio: 'ignore', detached: true });
        child.once('error', (err) => reject(new CliError(`could not run ${program} to open a browser: ${err.message}`)));
        child.once('spawn', () => {
          child.unref();
          note('Opened in your browser.');
          done();
        });
      });
    });
}
