import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module of the start script, without type declarations
import { quietDisabledDebug } from '../../../scripts/quiet-debug.mjs';
import { apiRoot } from './paths.ts';

type Logger = ((...args: unknown[]) => void) & { enabled: boolean; namespace: string };
type CreateDebug = ((namespace: string) => Logger) & { enable(ns: string): void; quiet?: boolean };

/** `debug` as socket.io resolves it. */
function socketIoDebug(): CreateDebug {
  const fromApi = createRequire(path.join(apiRoot, 'package.json'));
  const fromSocketIo = createRequire(fromApi.resolve('socket.io'));
  return fromSocketIo(fromSocketIo.resolve('debug')) as CreateDebug;
}

describe('quietDisabledDebug (npm start, before socket.io loads)', () => {
  it('gives namespaces DEBUG does not enable a logger that does nothing, and keeps enabled ones real', () => {
    socketIoDebug().enable('parley:on');
    quietDisabledDebug(apiRoot);
    const createDebug = socketIoDebug();
    expect(createDebug.quiet).toBe(true);

    const off = createDebug('engine:socket');
    expect(off.enabled).toBe(false);
    expect(off('packet %d', 1)).toBeUndefined();
    // One shared no-op: creating loggers for disabled namespaces allocates nothing per namespace.
    expect(createDebug('socket.io:client')).toBe(off);

    const on = createDebug('parley:on');
    expect(on.enabled).toBe(true);
    expect(on.namespace).toBe('parley:on');
  });

  it('is idempotent', () => {
    quietDisabledDebug(apiRoot);
    const first = socketIoDebug();
    quietDisabledDebug(apiRoot);
    expect(socketIoDebug()).toBe(first);
  });
});
