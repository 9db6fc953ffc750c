// Finds every `lanes …` command the project shows a reader: in README.md and docs/*.md (fenced
// shell blocks and inline code), in the examples' own text, and in every command's --help. Pure
// text work; documented.test.ts runs what this finds. A snippet with `[`, `|` or `…` is a
// synopsis (a command's shape, not something to type) and is checked against the CLI's options
// instead of run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';

export interface Example {
  /** Where a reader sees it, e.g. `docs/cli.md:12` or `lanes add --help`. */
  where: string;
  /** The line as written (a shell line; `npx lanes` and `$(lanes …)` included). */
  line: string;
  /** The exit status the text shows: 0 unless the line says `# exits N`. */
  exits: number;
}

/** Lines shown together (one fenced block, one docstring, one help text): run in order, in one shell. */
export interface Sequence {
  where: string;
  examples: Example[];
}

export interface Found {
  sequences: Sequence[];
  /** Inline mentions that are runnable on their own. */
  inline: Example[];
  /** Command shapes such as `lanes log ID [--follow]`. */
  synopses: Example[];
}

/** `lanes` in command position: at the start, after `$(`, `&&`, `||`, `|`, `;` or `&`; maybe via npx. */
const INVOCATION = /(?:^|\$\(|&&|\|\||[|;&])\s*(?:npx\s+)?lanes\s/;
const SYNOPSIS = /[[…]|\\\||\.\.\.| \| /;
const SHELL_FENCES = new Set(['', 'sh', 'bash', 'shell', 'console']);

const exitsOf = (line: string): number => Number(/#.*\bexits (\d)\b/.exec(line)?.[1] ?? 0);

function inlineSnippets(text: string, where: (index: number) => string): Example[] {
  const found: Example[] = [];
  for (const m of text.matchAll(/`((?:npx )?lanes [^`\n]+)`/g)) {
    const line = m[1]!.trim();
    found.push({ where: where(m.index), line, exits: exitsOf(line) });
  }
  return found;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Examples in one Markdown file: shell fences are sequences; inline code outside fences is one each. */
export function fromMarkdown(text: string, file: string): Found {
  const found: Found = { sequences: [], inline: [], synopses: [] };
  const outside: string[] = [];
  let fence: { lang: string; start: number; examples: Example[] } | null = null;
  text.split('\n').forEach((raw, i) => {
    const open = /^\s*```(\w*)/.exec(raw);
    if (open && !fence) {
      fence = { lang: open[1]!, start: i + 1, examples: [] };
      outside.push('');
      return;
    }
    if (open && fence) {
      if (SHELL_FENCES.has(fence.lang) && fence.examples.length > 0) found.sequences.push({ where: `${file}:${fence.start}`, examples: fence.examples });
      fence = null;
      outside.push('');
      return;
    }
    if (fence) {
      if (SHELL_FENCES.has(fence.lang) && INVOCATION.test(raw)) fence.examples.push({ where: `${file}:${i + 1}`, line: raw.trim(), exits: exitsOf(raw) });
      outside.push('');
      return;
    }
    outside.push(raw);
  });
  const prose = outside.join('\n');
  for (const e of inlineSnippets(prose, (index) => `${file}:${lineAt(prose, index)}`)) (SYNOPSIS.test(e.line) ? found.synopses : found.inline).push(e);
  return found;
}

/** Runs of command lines in any other text (a script's docstring, a help text), plus inline code. */
export function fromText(text: string, where: string): Found {
  const found: Found = { sequences: [], inline: [], synopses: [] };
  let run: Example[] = [];
  const close = () => {
    if (run.length > 0) found.sequences.push({ where: run[0]!.where, examples: run });
    run = [];
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (INVOCATION.test(line) && !line.startsWith('Usage:') && !line.includes('`')) run.push({ where: `${where}:${i + 1}`, line, exits: exitsOf(line) });
    else close();
  });
  close();
  for (const e of inlineSnippets(text, (index) => `${where}:${lineAt(text, index)}`)) (SYNOPSIS.test(e.line) ? found.synopses : found.inline).push(e);
  return found;
}

function merge(all: Found[]): Found {
  return { sequences: all.flatMap((f) => f.sequences), inline: all.flatMap((f) => f.inline), synopses: all.flatMap((f) => f.synopses) };
}

/** Every command of the program with its full name, e.g. ['lane add', Command]. */
export function commandsOf(program: Command, prefix = ''): [string, Command][] {
  return program.commands.flatMap((cmd): [string, Command][] => {
    const name = `${prefix}${cmd.name()}`;
    return [[name, cmd], ...commandsOf(cmd, `${name} `)];
  });
}

/** What `lanes [COMMAND] --help` prints, captured in process. */
export function helpText(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

export function collect(root: string, program: Command): Found {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
  const examples = readdirSync(join(root, 'examples')).sort();
  return merge([
    fromMarkdown(readFileSync(join(root, 'README.md'), 'utf8'), 'README.md'),
    ...docs.map((f) => fromMarkdown(readFileSync(join(root, 'docs', f), 'utf8'), `docs/${f}`)),
    ...examples.map((f) => fromText(readFileSync(join(root, 'examples', f), 'utf8'), `examples/${f}`)),
    fromText(helpText(program), 'lanes --help'),
    ...commandsOf(program).map(([name, cmd]) => fromText(helpText(cmd), `lanes ${name} --help`)),
  ]);
}
