import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A logged stack names the TypeScript sources of the bundled server: its frames are mapped through
 * the bundle's source map when the stack is logged. Process-wide source maps (`--enable-source-maps`)
 * would map every stack anything reads: engine.io reads one on each write to a socket that is
 * closing, so a wave of disconnects cost a source-mapped stack per socket on the event loop.
 */
const maps = new Map<string, SourceMap | null>();

/** The source map beside a generated file (read once; null when it has none). */
function mapOf(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** `    at name (file:line:col)` or `    at file:line:col`, for a JavaScript file of the bundle's kind. */
const FRAME = /^(\s+at (?:.+ \()?)((?:file:\/\/)?\/[^():]+\.m?js):(\d+):(\d+)(\)?)$/;

/** The stack with each frame of a file that has a source map beside it moved to its source. */
export function mappedStack(stack: string): string {
  if (!stack.includes('.mjs:') && !stack.includes('.js:')) return stack;
  return stack
    .split('\n')
    .map((line) => {
      const f = FRAME.exec(line);
      if (!f) return line;
      const [, head, where, row, col, tail] = f;
      // Only the server's own bundle ships a map; a dependency's frame stays as it is.
      if (where!.includes('/node_modules/')) return line;
      const file = where!.startsWith('file://') ? fileURLToPath(where!) : where!;
      const entry = mapOf(file)?.findEntry(Number(row) - 1, Number(col) - 1);
      if (!entry || !('originalSource' in entry)) return line;
      const source = path.resolve(path.dirname(file), entry.originalSource);
      return `${head}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${tail}`;
    })
    .join('\n');
}
