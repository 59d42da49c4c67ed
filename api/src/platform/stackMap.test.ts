import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { mappedStack } from './stackMap.ts';
import { safeError } from './logger.ts';

/**
 * A small bundle with its source map beside it, as the server's build writes one, and a stack as
 * a process without source maps reports an error made in it (the test runner maps its own).
 */
function bundled() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-stackmap-'));
  const source = path.join(dir, 'src', 'thrower.ts');
  mkdirSync(path.dirname(source), { recursive: true });
  writeFileSync(
    source,
    ['// a line', 'const why: string = "broken";', 'export function fail(): Error {', '  return new Error(why);', '}', ''].join('\n'),
  );
  const outfile = path.join(dir, 'dist', 'main.mjs');
  buildSync({ entryPoints: [source], bundle: true, format: 'esm', platform: 'node', sourcemap: true, outfile, logLevel: 'silent' });
  const lines = readFileSync(outfile, 'utf8').split('\n');
  const row = lines.findIndex((l) => l.includes('new Error('));
  const col = lines[row]!.indexOf('new Error(');
  const stack = [
    'Error: broken',
    `    at fail (${pathToFileURL(outfile).href}:${row + 1}:${col + 1})`,
    '    at run (/srv/parley/node_modules/ws/lib/websocket.js:10:3)',
    '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  ].join('\n');
  return { source, stack };
}

describe('logged stacks', () => {
  it('name the TypeScript source of a bundled frame, leave other frames as they are', () => {
    const { source, stack } = bundled();
    const mapped = mappedStack(stack).split('\n');
    expect(mapped[1]).toBe(`    at fail (${source}:4:10)`);
    expect(mapped.filter((_, i) => i !== 1)).toEqual(stack.split('\n').filter((_, i) => i !== 1));
    // The logger's serializer maps what it writes.
    const err = Object.assign(new Error('broken'), { stack });
    expect((safeError(err) as { stack: string }).stack).toContain(`at fail (${source}:4:10)`);
  });

  it('keep a stack without a map as it is', () => {
    const stack =
      'Error: x\n    at f (/nowhere/plain.mjs:1:2)\n    at /srv/node_modules/ws/lib/websocket.js:10:3\n    at g (node:internal/x:3:4)';
    expect(mappedStack(stack)).toBe(stack);
  });
});
