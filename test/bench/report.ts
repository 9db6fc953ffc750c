// The benchmark's figures as people read them: a table per section, each value a median with its
// range, the peer beside it and the pair-by-pair comparison, for the terminal and for
// docs/benchmarks.md.
import type { Figure, Summary } from './stats.js';

function num(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  const a = Math.abs(x);
  if (a >= 100) return Math.round(x).toLocaleString('en-US');
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

const signed = (x: number) => (x > 0 ? `+${num(x)}` : num(x));

/** "4,315 (4,020–4,480)"; one run shows no range. */
export function range(s: Summary, unit = '', fmt: (x: number) => string = num): string {
  const u = unit ? ` ${unit}` : '';
  if (s.n <= 1 || s.min === s.max) return `${fmt(s.median)}${u}`;
  return `${fmt(s.median)}${u} (${fmt(s.min)} to ${fmt(s.max)})`;
}

function comparison(f: Figure): string {
  if (!f.compared) return '';
  return f.compared.how === 'ratio' ? `× ${range(f.compared.value)}` : range(f.compared.value, f.unit, signed);
}

const verdict = (f: Figure) => (f.met === undefined ? '' : f.met ? 'met' : '**missed**');

export function markdownTables(figures: Figure[]): string {
  const sections = [...new Set(figures.map((f) => f.section))];
  return sections
    .map((section) => {
      const rows = figures
        .filter((f) => f.section === section)
        .map((f) => {
          const peer = f.peer ? `${range(f.peer.value, f.unit === '%' ? '' : f.unit)}: ${f.peer.name}` : '';
          const what = f.note ? `${f.what} — ${f.note}` : f.what;
          return `| ${what} | ${range(f.lanes, f.unit)} | ${peer} | ${comparison(f)} | ${f.target ?? ''} | ${verdict(f)} |`;
        });
      return [`### ${section}`, '', '| Measure | Lanes | Peer, measured alongside | Lanes against peer, pair by pair | Target | |', '| --- | ---: | --- | ---: | --- | --- |', ...rows].join('\n');
    })
    .join('\n\n');
}

export function terminalLines(figures: Figure[]): string {
  return figures
    .map((f) => {
      const peer = f.peer ? `  vs ${range(f.peer.value)} (${f.peer.name})${f.compared ? `  → ${comparison(f)}` : ''}` : '';
      const target = f.target ? `  [${f.target}: ${f.met === undefined ? '' : f.met ? 'met' : 'MISSED'}]` : '';
      return `${f.what}: ${range(f.lanes, f.unit)}${peer}${target}`;
    })
    .join('\n');
}
