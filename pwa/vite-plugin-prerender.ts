import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { linguiPlugin } from './vite-plugin-lingui';
import { build, type Plugin, type ResolvedConfig } from 'vite';

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Pre-renders the landing and login pages: after the client build is written, src/prerender.tsx is
 * built for Node and run, and its HTML goes into the root element of index.html (the server and the
 * service worker answer `/` with it) and of login.html (`/login`). The untouched page becomes shell.html, the fallback of every other
 * route (a pre-rendered landing there would flash before the right page). Runs before the service
 * worker's precache list and the precompressed copies are made (closeBundle), so both see it.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'parley-prerender-landing',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle: {
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        // Inside node_modules so the built module finds react-dom/server and the rest as packages.
        const serverDir = path.join(config.cacheDir, 'prerender');
        await build({
          configFile: false,
          root: config.root,
          logLevel: 'warn',
          // React's own server renderer; the page it renders is the app's code as is.
          plugins: [linguiPlugin(), react()],
          build: {
            ssr: path.resolve(config.root, 'src/prerender.tsx'),
            outDir: serverDir,
            emptyOutDir: true,
            rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
          // The contract package ships TypeScript sources: bundle it; Node imports the rest.
          ssr: { noExternal: ['@parley/contract'] },
        });
        try {
          const render = (await import(pathToFileURL(path.join(serverDir, 'prerender.mjs')).href)) as {
            renderLanding: () => string;
            renderLogin: () => Promise<string>;
          };
          const shell = await readFile(path.join(outDir, 'index.html'), 'utf8');
          if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to pre-render into`);
          // The root says which page it holds: the app takes over only markup made for its page.
          const page = (route: string, html: string) =>
            shell.replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${route}">${html}</div>`);
          await writeFile(path.join(outDir, 'shell.html'), shell);
          await writeFile(path.join(outDir, 'index.html'), page('/', render.renderLanding()));
          await writeFile(path.join(outDir, 'login.html'), page('/login', await render.renderLogin()));
        } finally {
          await rm(serverDir, { recursive: true, force: true });
          await mkdir(config.cacheDir, { recursive: true });
        }
      },
    },
  };
}
