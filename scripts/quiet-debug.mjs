// socket.io and engine.io log through `debug`, several calls per packet. A disabled `debug` logger
// still gathers its arguments into a fresh array on every call (`function debug(...args)`): about a
// tenth of what the server allocates under chat load, and more garbage means more and longer GC
// pauses. Loggers whose namespace DEBUG does not enable get a function that does nothing instead.
//
// It has to run before socket.io is loaded, which is why `npm start` calls it ahead of importing
// the server bundle. DEBUG still works as documented for the namespaces it names at start.
import { createRequire } from 'node:module';
import path from 'node:path';

/** Swaps the `debug` that socket.io resolves (from the API package) for the quiet version. */
export function quietDisabledDebug(apiRoot) {
  const require = createRequire(path.join(apiRoot, 'package.json'));
  const id = createRequire(require.resolve('socket.io')).resolve('debug');
  const createDebug = require(id);
  if (createDebug.quiet) return;
  const off = () => {};
  off.enabled = false;
  off.namespace = '';
  off.extend = () => off;
  off.destroy = () => true;
  off.log = off;
  const quiet = Object.assign((namespace) => (createDebug.enabled(namespace) ? createDebug(namespace) : off), createDebug, {
    quiet: true,
  });
  quiet.default = quiet;
  quiet.debug = quiet;
  require.cache[id].exports = quiet;
}
