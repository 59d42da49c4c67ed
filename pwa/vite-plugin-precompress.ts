import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm)$/;
const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every text asset of the build. The server (koa-send) answers
 * with them when the browser accepts the encoding, so nothing is compressed per request.
 * A compressed copy is kept only when it saves at least a tenth.
 */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'parley-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        for (const file of await listFiles(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const source = await readFile(file);
          if (source.length < MIN_BYTES) continue;
          // Maximum brotli for the app's own files; a lighter level keeps multi-megabyte WebAssembly quick.
          const quality = source.length > 1_000_000 ? 9 : constants.BROTLI_MAX_QUALITY;
          const [br, gzipped] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gz(source, { level: 9 }),
          ]);
          if (br.length < source.length * 0.9) await writeFile(`${file}.br`, br);
          if (gzipped.length < source.length * 0.9) await writeFile(`${file}.gz`, gzipped);
        }
      },
    },
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir)) {
    // Dot folders (.vite: the build's reports) are not served.
    if (entry.startsWith('.')) continue;
    const full = path.join(dir, entry);
    if ((await stat(full)).isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}
