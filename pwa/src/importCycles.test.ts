import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles between the PWA's modules (the lint has no cycle rule without another plugin).
 * Counted: value imports and re-exports between source files; type-only imports vanish at build
 * time and dynamic import() loads lazily, so neither can make a module run before its imports.
 */
const SRC = import.meta.dirname;
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.[^']+)'/gms;

function sourceFiles(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'locales') sourceFiles(full, into);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) into.push(full);
  }
  return into;
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    const base = path.resolve(path.dirname(from), spec);
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((c) => known.has(c));
  };
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = [...readFileSync(f, 'utf8').matchAll(STATIC_IMPORT)].map((m) => resolve(f, m[1]!)).filter((d) => d !== undefined);
    graph.set(f, deps);
  }
  return graph;
}

/** One cycle per strongly connected group of modules (a path that comes back to where it started). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (v: string) => {
    state.set(v, 'open');
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (state.get(w) === 'open') cycles.push([...stack.slice(stack.indexOf(w)), w]);
      else if (!state.has(w)) visit(w);
    }
    stack.pop();
    state.set(v, 'done');
  };
  for (const v of graph.keys()) if (!state.has(v)) visit(v);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('the PWA has none', () => {
    const graph = importGraph(sourceFiles(SRC));
    // The graph is read as the bundler resolves it (a multi-line import, a re-export).
    expect(graph.get(path.join(SRC, 'store/api.ts'))).toContain(path.join(SRC, 'app/store.ts'));
    const cycles = findCycles(graph).map((c) => c.map((f) => path.relative(SRC, f)).join(' → '));
    expect(cycles).toEqual([]);
  });
});
