#!/usr/bin/env node
// The `lanes` command. The CLI itself is compiled TypeScript: one bundled file in dist/cli/ (it
// starts faster), else tsc's output in dist/electron/cli/ when the bundle is missing or older
// than it (a test run that only recompiled). Nothing but Node's fs and url is loaded before that.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const here = new URL('../', import.meta.url);

// `lanes --version` needs nothing of the CLI: answered here, as commander would (version, newline).
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('package.json', here), 'utf8')).version}\n`);
} else {
  const bundle = new URL('dist/cli/lanes.js', here);
  const compiled = new URL('dist/electron/cli/main.js', here);
  const mtime = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const entry = mtime(bundle) >= mtime(compiled) ? bundle : compiled;
  import(entry.href).catch((err) => {
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(fileURLToPath(entry))) {
      process.stderr.write('lanes: the CLI is not built yet; run `npm run build:node` in the Lanes checkout.\n');
    } else {
      process.stderr.write(`lanes: ${err?.stack ?? err}\n`);
    }
    process.exitCode = 1;
  });
}
