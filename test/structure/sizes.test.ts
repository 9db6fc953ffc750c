// The product's size, checked from its source: no file of electron/ or shared/ over 300 lines, and
// no function there over 80 (every function the compiler sees, declared, a method or an arrow,
// measured from its first line to its last, functions inside it included: what a reader scrolls
// through). A file past the bound is a module to split; a function past it, steps to name.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { productSources, root } from './sources.js';

export const FILE_LINES_MAX = 300;
export const FUNCTION_LINES_MAX = 80;

const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Each function of `text` with a body, named where it has a name, and how many lines it spans. */
export function functionSpans(file: string, text: string): { name: string; line: number; lines: number }[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const spans: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(source));
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : '(anonymous)';
      spans.push({ name, line: first + 1, lines: lineOf(node.end) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

describe('the product’s size', () => {
  const files = productSources(['electron', 'shared']).map((file) => ({ file: path.relative(root, file), text: fs.readFileSync(file, 'utf8') }));

  it(`no file is over ${FILE_LINES_MAX} lines`, () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => lineCount(f.text) > FILE_LINES_MAX).map((f) => `${f.file}: ${lineCount(f.text)} lines`)).toEqual([]);
  });

  it(`no function is over ${FUNCTION_LINES_MAX} lines`, () => {
    const long = files.flatMap((f) => functionSpans(f.file, f.text).filter((s) => s.lines > FUNCTION_LINES_MAX).map((s) => `${f.file}:${s.line} ${s.name}: ${s.lines} lines`));
    expect(long).toEqual([]);
  });

  it('measures every kind of function, from its first line to its last', () => {
    const text = ['function a() {', '  return 1;', '}', 'const b = () => {', '  const c = function () {', '    return 2;', '  };', '};', 'class D {', '  e() {}', '}', ''].join('\n');
    expect(functionSpans('x.ts', text)).toEqual([
      { name: 'a', line: 1, lines: 3 },
      { name: 'b', line: 4, lines: 5 },
      { name: 'c', line: 5, lines: 3 },
      { name: 'e', line: 10, lines: 1 },
    ]);
    expect(lineCount(text)).toBe(11);
  });
});
