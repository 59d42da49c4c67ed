import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The API package's folder, found from this module upwards, so that the same code finds its files
 * whether it runs from api/src under tsx or bundled into api/dist (scripts/build-server.mjs).
 */
function findApiRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@parley/api') return dir;
    if (path.dirname(dir) === dir) throw new Error(`@parley/api package.json not found above ${from}`);
  }
}

export const apiRoot = findApiRoot(path.dirname(fileURLToPath(import.meta.url)));
export const repoRoot = path.dirname(apiRoot);
