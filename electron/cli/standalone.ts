// Which `lanes` this is: the Node script of a checkout (bin/lanes.js), or the standalone executable
// an installed app carries (electron/cli/exe.mjs builds it with LANES_STANDALONE defined). The two
// run the same commands; they differ only in what the standalone one cannot do itself, which is
// host the engine: that needs better-sqlite3 compiled for the Node that runs it (docs/desktop.md).
declare const LANES_STANDALONE: boolean | undefined;

export const standalone: boolean = typeof LANES_STANDALONE !== 'undefined' && LANES_STANDALONE;

/** How to start an engine, as this `lanes` can: said wherever no engine answers. */
export function howToStart(isStandalone: boolean = standalone): string {
  return isStandalone
    ? 'open Lanes from your applications, or run `lanes open` to start it'
    : 'open Lanes from your applications, or run `lanes daemon` (add --data-dir if you use another directory)';
}
