import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

/** One chunk of the client build: what it holds and what it loads. */
export type ReportedChunk = {
  file: string;
  isEntry: boolean;
  /** The app's own modules as paths from pwa/ (`src/main.tsx`), packages by name (`react-dom`). */
  modules: string[];
  /** Chunks it imports statically (loaded with it) and dynamically (loaded on demand). */
  imports: string[];
  dynamicImports: string[];
};
export type BundleReport = { chunks: ReportedChunk[] };

export const BUNDLE_REPORT = '.vite/bundle-report.json';

/** A module id as the report names it: a package by its name, the app's own files from pwa/. */
function moduleName(id: string, root: string): string {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const at = clean.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const [scope, name] = clean.slice(at + '/node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  return path.isAbsolute(clean) ? path.relative(root, clean).split(path.sep).join('/') : clean;
}

/**
 * Writes `.vite/bundle-report.json` into the build: every chunk of the client build with its
 * modules and imports, the build's own answer to "what does a page download". The end-to-end check
 * of the landing page's JavaScript (e2e/bundle.spec.ts) reads it. Dot folders are not served.
 */
export function bundleReport(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'parley-bundle-report',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(options, bundle) {
      // The service worker is built apart, as one IIFE: only the app's ES module build is reported.
      if (options.format !== 'es' || config.build.ssr) return;
      const chunks: ReportedChunk[] = [];
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        chunks.push({
          file: out.fileName,
          isEntry: out.isEntry,
          modules: [...new Set(Object.keys(out.modules).map((id) => moduleName(id, config.root)))].sort(),
          imports: out.imports,
          dynamicImports: out.dynamicImports,
        });
      }
      this.emitFile({ type: 'asset', fileName: BUNDLE_REPORT, source: `${JSON.stringify({ chunks } satisfies BundleReport, null, 1)}\n` });
    },
  };
}
