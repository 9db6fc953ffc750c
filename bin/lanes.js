#!/usr/bin/env node
// The `lanes` command. The CLI itself is compiled TypeScript in dist/.
import('../dist/electron/cli/main.js').catch((err) => {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/electron/cli/main.js')) {
    process.stderr.write('lanes: the CLI is not built yet; run `npm run build:node` in the Lanes checkout.\n');
  } else {
    process.stderr.write(`lanes: ${err?.stack ?? err}\n`);
  }
  process.exitCode = 1;
});
