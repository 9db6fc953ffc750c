// The project's shape, checked from its source: no import cycle between its files anywhere in the
// product (electron/, shared/, renderer/), type imports included, since a cycle of types is the
// same knot a reader has to untie. The layer order inside the engine is eslint.config.js's.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { productSources, root } from './sources.js';

/** The file a relative specifier names, as the compilers resolve it (`./x.js` is `./x.ts`); null: not a source here. */
function resolve(from: string, spec: string, known: ReadonlySet<string>): string | null {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const c of [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) if (known.has(c)) return c;
  return null;
}

/** Each product file's relative imports of other product files (static, dynamic, re-exports, types). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => resolve(file, i.fileName, known));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== null))]);
  }
  return graph;
}

export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle.map((f) => path.relative(root, f));
  }
  return null;
}

describe('the product’s imports', () => {
  const files = productSources();
  const graph = importGraph(files);

  it('are read from every folder of the product, .tsx and extensionless specifiers included', () => {
    for (const top of ['electron', 'shared', 'renderer']) expect(files.filter((f) => path.relative(root, f).startsWith(top + path.sep)).length).toBeGreaterThan(10);
    const edges = (f: string) => graph.get(path.join(root, f)) ?? [];
    // A renderer file imports without an extension; the engine's index re-exports with `.js`.
    expect(edges('renderer/main.tsx').length).toBeGreaterThan(0);
    expect(edges('electron/engine/index.ts').length).toBeGreaterThan(3);
  });

  it('form no cycle', () => {
    expect(findCycle(graph)).toBeNull();
  });

  it('the cycle finder finds one when there is one', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    expect(findCycle(new Map([[a, [b]], [b, [a]]]))).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });
});
