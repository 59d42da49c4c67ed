// The test files whose run can differ with DATABASE_URL or REDIS_URL set: those that read either,
// directly or through the modules they import (relative imports, followed transitively). The
// PostgreSQL + Redis pass of `npm test` runs these; every other file would only repeat its PGlite run.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SERVICE = /\b(DATABASE_URL|REDIS_URL)\b/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, path.join(base, 'index.ts')];
  // A `.js` specifier may name a TypeScript source.
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((c) => existsSync(c) && !c.endsWith('/'));
}

/** Whether `file` or anything it imports (relative paths) mentions DATABASE_URL or REDIS_URL. */
export function usesServices(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file);
  seen.set(file, false); // an import cycle adds nothing new
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  let result = SERVICE.test(text);
  if (!result) {
    for (const m of text.matchAll(IMPORT)) {
      const dep = resolveImport(file, m[1]);
      if (dep && usesServices(dep, seen)) {
        result = true;
        break;
      }
    }
  }
  seen.set(file, result);
  return result;
}

export function serviceSuites(files) {
  const seen = new Map();
  return files.filter((f) => usesServices(path.resolve(f), seen));
}
