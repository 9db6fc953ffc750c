// `lanes events`: the scale ledger — every worker start, stop and drain, and why.
import type { Command } from 'commander';
import type { ScaleEvent } from '../../../shared/model.js';
import { wholeNumber } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { watch } from '../watch.js';
import { clock, columnWidths, table, tableWidth, wrapLast } from '../format.js';
import { LEDGER_KEEP, LEDGER_READ_DEFAULT } from '../../../shared/limits.js';
import { REASON_WORDS, reasonWords } from '../../../shared/ledger-words.js';

function rows(events: ScaleEvent[]): string[][] {
  return events.map((e) => [clock(e.at), e.lane, `${e.from} → ${e.to}`, reasonWords(e).toLowerCase(), e.detail]);
}

const HEADER = ['TIME', 'LANE', 'WORKERS', 'REASON', 'DETAIL'];
const ALIGN = ['left', 'left', 'right', 'left', 'left'] as const;
/**
 * Followed, rows come a few at a time under one header: each column is given room from the start
 * for what it usually holds (a clock, "12 → 12", the longest reason) and only ever widens, so the
 * rows stay under their header.
 */
const FOLLOW_WIDTHS = [8, 12, 7, Math.max(...Object.values(REASON_WORDS).map((w) => w.length), 'cap lowered'.length), 0];

interface EventsOptions {
  lane?: string;
  limit: number;
  follow?: boolean;
  json?: boolean;
  wide?: boolean;
}

export function registerEvents(program: Command): void {
  program
    .command('events')
    .description('the scale ledger: when each lane grew or shrank, and why')
    .option('--lane <name>', 'only this lane')
    .option('--limit <n>', `the most recent this many (default: ${LEDGER_READ_DEFAULT})`, wholeNumber('--limit', 1, LEDGER_KEEP), LEDGER_READ_DEFAULT)
    .option('-f, --follow', 'keep printing new ledger rows as they happen')
    .option('--json', 'one JSON array; with --follow, one JSON object per line')
    .option('--wide', 'each row on one line, however long its detail')
    .action(async (opts: EventsOptions, cmd: Command) => {
      const client = clientFor(cmd);
      const lane = opts.lane !== undefined ? { lane: opts.lane } : {};
      const shown = new Set<number>();
      let widths: number[] = opts.follow ? FOLLOW_WIDTHS : [];
      const show = (events: ScaleEvent[], header: boolean) => {
        const fresh = events.filter((e) => !shown.has(e.id));
        fresh.forEach((e) => shown.add(e.id));
        if (opts.json) {
          if (opts.follow) fresh.forEach((e) => printJson(e));
          else printJson(fresh);
        } else if (fresh.length > 0 || header) {
          widths = columnWidths(HEADER, rows(fresh), widths);
          // DETAIL, the last column, goes on under itself rather than back under TIME.
          const detailAt = widths.slice(0, -1).reduce((n, w) => n + w + 2, 0);
          const text = wrapLast(table(HEADER, rows(fresh), [...ALIGN], widths), detailAt, tableWidth(opts.wide));
          print(header ? text : text.slice(text.indexOf('\n') + 1));
        }
      };
      if (!opts.follow) return show(await client.call('scaleEvents', { ...lane, limit: opts.limit }), true);
      // Subscribe first, then read the ledger: a row written in between arrives as an event and
      // is shown once (ids are remembered), never lost.
      let first = true;
      await watch(
        client,
        {
          read: async () => {
            const known = [...shown];
            const afterId = known.length > 0 ? Math.max(...known) : undefined;
            show(await client.call('scaleEvents', { ...lane, limit: opts.limit, ...(afterId !== undefined ? { afterId } : {}) }), first);
            first = false;
          },
          event: (event) => {
            if (event.type === 'scale' && (opts.lane === undefined || event.data.lane === opts.lane)) show([event.data], false);
          },
        },
        new AbortController().signal,
      );
    });
}
