import path from 'node:path';
import { transformAsync } from '@babel/core';
import { getConfig } from '@lingui/conf';
import { lingui } from '@lingui/vite-plugin';
import type { Plugin } from 'vite';

const configPath = path.resolve(import.meta.dirname, 'lingui.config.ts');
/** Only modules that import a Lingui macro go through Babel; everything else stays on the fast path. */
const USES_MACRO = /from\s+['"]@lingui\/(?:core|react)\/macro['"]/;

/**
 * Lingui for every build of the PWA (the app, the landing page's pre-render, the unit tests): each
 * .po catalog compiled to a module when imported (Lingui's Vite plugin), and the macros (<Trans>,
 * t, msg, plural) compiled by Babel in the modules that use them. Vite 8's React plugin no longer
 * runs Babel, and Lingui's own Rolldown-Babel preset needs a newer Node than Parley supports.
 * A production build keeps only the messages' ids: the catalogs carry the text.
 */
export function linguiPlugin(): Plugin[] {
  let production = process.env.NODE_ENV === 'production';
  // Found by path, not from the working directory: the unit tests run from the repository root.
  const linguiConfig = getConfig({ configPath });
  const macros: Plugin = {
    name: 'parley-lingui-macros',
    enforce: 'pre',
    configResolved(config) {
      production = config.isProduction;
    },
    async transform(code, id) {
      const file = id.split('?')[0]!;
      if (!/\.[jt]sx?$/.test(file) || file.includes('/node_modules/') || !USES_MACRO.test(code)) return null;
      const result = await transformAsync(code, {
        filename: file,
        babelrc: false,
        configFile: false,
        sourceMaps: true,
        parserOpts: { plugins: ['jsx', 'typescript'] },
        plugins: [['@lingui/babel-plugin-lingui-macro', { stripMessageField: production, linguiConfig }]],
      });
      return result?.code ? { code: result.code, map: result.map } : null;
    },
  };
  return [macros, ...lingui({ configPath })];
}
