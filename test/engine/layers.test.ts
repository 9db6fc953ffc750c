// The engine's shape, checked from its source: no import cycle between its files (type imports
// included, since a cycle of types is the same knot a reader has to untie), and its folders keep
// to the layer order that eslint.config.js enforces file by file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
const engine = path.join(root, 'electron', 'engine');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Each engine file's relative imports of other engine files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(engine)) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)\.js'/g)]
      .map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`))
      .filter((t) => t.startsWith(engine + path.sep) && fs.existsSync(t));
    graph.set(file, targets);
  }
  return graph;
}

function findCycle(graph: Map<string, string[]>): string[] | null {
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
    if (cycle) return cycle.map((f) => path.relative(engine, f));
  }
  return null;
}

describe('the engine’s imports', () => {
  it('form no cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(findCycle(graph)).toBeNull();
  });

  it('the cycle finder finds one when there is one', () => {
    const a = path.join(engine, 'a.ts');
    const b = path.join(engine, 'b.ts');
    expect(findCycle(new Map([[a, [b]], [b, [a]]]))).toEqual(['a.ts', 'b.ts', 'a.ts']);
  });
});
