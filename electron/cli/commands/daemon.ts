// The engine itself: `lanes daemon` runs it with its API in the foreground, for machines without
// the tray app and for scripts; Ctrl-C (or SIGTERM from a service manager) stops it gracefully.
// `lanes open` gives the address of its window, starting the installed app when none runs.
import type { Command } from 'commander';
import { wholeNumber } from '../args.js';
import { connectionFor, dataDirOf, note, print, printJson } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { standalone } from '../standalone.js';
import { plural } from '../../../shared/format.js';
import { LanesError } from '../../../shared/errors.js';
import type { WindowAddress } from '../../../shared/client/http.js';

interface DaemonOptions {
  port?: number;
  grace: number;
}

/**
 * What the standalone `lanes` says to `lanes daemon`. The engine keeps its store in SQLite through
 * better-sqlite3, a native module built for one runtime: the app carries it built for Electron,
 * and a single executable can load no native module from inside itself. Shipping a second copy
 * for the executable's Node would make the CLI as large as the app for a headless engine that
 * the app already is (docs/desktop.md).
 */
export const NO_ENGINE_HERE =
  'this `lanes` runs no engine itself: the Lanes app is the engine, so open Lanes from your applications or run `lanes open`; ' +
  'for one without a window, run `npm run daemon` in a Lanes checkout';

export function registerDaemon(program: Command): void {
  program
    .command('daemon')
    .description('run the engine and its local API in the foreground; Ctrl-C stops it')
    .option('--port <n>', 'listen on this port (default: a free one)', wholeNumber('the port', 0, 65_535))
    .option('--grace <seconds>', 'how long running jobs get to finish when stopping', wholeNumber('the grace period', 0), 10)
    .action(async (opts: DaemonOptions, cmd: Command) => {
      if (standalone) throw new CliError(NO_ENGINE_HERE);
      // Loaded here, not at the top: every other command starts faster without the engine.
      const { hostEngine } = await import('../../api/host.js');
      const hosted = await hostEngine({ dataDir: dataDirOf(cmd), ...(opts.port !== undefined ? { port: opts.port } : {}) });
      const { engine } = hosted;
      // Listening for the signals before saying it runs: whoever reads that line may stop it at once.
      const stopped = new Promise<void>((done) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) {
            // A second Ctrl-C means now: unfinished jobs run again at the next start.
            note('Stopping now.');
            process.exit(130);
          }
          stopping = true;
          note(`${signal}: letting running jobs finish (up to ${opts.grace}s); Ctrl-C again to stop now.`);
          hosted
            .close({ graceMs: opts.grace * 1000 })
            .then(() => note('Stopped.'))
            .catch((err: unknown) => note(`lanes: while stopping: ${(err as Error).message}`))
            .finally(() => {
              // Nothing should outlive the engine; if something does, it must not hold the exit.
              setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
              done();
            });
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        process.on('SIGHUP', stop);
      });
      note(`Lanes engine running: pid ${process.pid}, up to ${plural(engine.ceiling, 'worker')} at once, data in ${engine.dataDir}`);
      // No credential on stdout, where a service manager's journal would keep it.
      // Started by `npm run daemon` in a checkout, \`lanes\` is on no PATH: npx finds the checkout's own.
      const open = process.env.npm_lifecycle_event === 'daemon' ? 'npx lanes open' : 'lanes open';
      print(`Window: http://127.0.0.1:${hosted.port}/ — open it with \`${open}\` (add --browser to open it in your browser)`);
      note('Press Ctrl-C to stop.');
      await stopped;
    });
}

/** The platform's own "open this URL" program; no shell, so the URL is one plain argument. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** The running engine's window; with none running, the installed app started and waited for. */
async function windowOrStartApp(cmd: Command): Promise<WindowAddress> {
  try {
    return await connectionFor(cmd).window();
  } catch (error) {
    if (!(error instanceof LanesError && error.code === 'unavailable')) throw error;
    // Loaded only here: every other call of the CLI starts faster without it.
    const { startApp, windowWhenUp } = await import('../start-app.js');
    const where = startApp(dataDirOf(cmd));
    if (!where) throw error;
    note(`Starting Lanes (${where}) …`);
    return windowWhenUp(dataDirOf(cmd));
  }
}

/**
 * `lanes open`: the window's address, token included. Printing is the default because the token
 * is a secret: opening a browser is something the person asks for with --browser.
 */
export function registerOpen(program: Command): void {
  program
    .command('open')
    .description("print the window's address (with its token); --browser opens it")
    .option('--browser', 'open it in your default browser')
    .option('--json', 'print {"url": ADDRESS}')
    .action(async (opts: { browser?: boolean; json?: boolean }, cmd: Command) => {
      if (opts.browser && opts.json) throw new UsageError('--json prints the address; --browser opens it: choose one');
      const window = await windowOrStartApp(cmd);
      if (opts.json) return printJson({ url: window.url });
      if (!opts.browser) return print(window.url);
      // Loaded only here: every other call of the CLI starts faster without them.
      const [{ spawn }, { pathToFileURL }, { writeOpenPage }] = await Promise.all([import('node:child_process'), import('node:url'), import('../../api/daemon-info.js')]);
      // The browser gets a path to a private page, not an address on a command line; the page
      // holds a code good once, within a minute, and the engine removes the page once it is used.
      const page = pathToFileURL(writeOpenPage(dataDirOf(cmd), window.onceUrl)).href;
      const [program, args] = opener(page);
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
