import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BUNDLE_REPORT, type BundleReport, type ReportedChunk } from '../vite-plugin-bundle-report.ts';

/** The build the end-to-end server serves (scripts/start.mjs: PWA_DIST, else pwa/dist). */
export const distDir = process.env.PWA_DIST
  ? path.resolve(process.env.PWA_DIST)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

export function readReport(): BundleReport {
  return JSON.parse(readFileSync(path.join(distDir, BUNDLE_REPORT), 'utf8')) as BundleReport;
}

/** A file's size gzipped at level 9, as bench/lighthouse.ts counts the landing page's JavaScript. */
export function gzipBytes(file: string): number {
  return gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length;
}

/** The scripts index.html names itself: its entry and the modules it preloads. */
export function scriptsOfIndexHtml(): string[] {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  return tags
    .filter((t) => t.startsWith('<script') || /rel="modulepreload"/.test(t))
    .map((t) => /(?:src|href)="\/([^"]+)"/.exec(t)?.[1])
    .filter((f): f is string => f !== undefined);
}

/** The chunks `roots` load at once: themselves and, transitively, what they import statically. */
export function withStaticImports(report: BundleReport, roots: string[]): Set<string> {
  const byFile = new Map(report.chunks.map((c) => [c.file, c]));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of byFile.get(file)?.imports ?? []) visit(next);
  };
  roots.forEach(visit);
  return seen;
}

/** The chunk holding a module (`src/locales/fr/shell.po`, `workbox-window`). */
export function chunkWith(report: BundleReport, module: string): ReportedChunk {
  const chunk = report.chunks.find((c) => c.modules.includes(module));
  if (!chunk) throw new Error(`no chunk of the build holds ${module}`);
  return chunk;
}

/**
 * What a visitor's landing page `/` downloads in `locale`: the scripts of index.html and their
 * static imports, then what main.tsx loads at start — the language's shell catalog and the
 * service worker's registration (workbox-window) — with theirs.
 */
export function landingScripts(report: BundleReport, locale: string): Set<string> {
  const startLoads = [chunkWith(report, `src/locales/${locale}/shell.po`).file, chunkWith(report, 'workbox-window').file];
  return withStaticImports(report, [...scriptsOfIndexHtml(), ...startLoads]);
}

/** The modules (packages by name, the app's files by path) the given chunks hold. */
export function modulesOf(report: BundleReport, files: Iterable<string>): Set<string> {
  const wanted = new Set(files);
  return new Set(report.chunks.filter((c) => wanted.has(c.file)).flatMap((c) => c.modules));
}
