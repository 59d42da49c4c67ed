import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Server } from 'socket.io';
import { isSupportedProtocol, PROTOCOL_OUTDATED, PROTOCOL_OUTDATED_MESSAGE } from '@parley/contract/protocol';
import { closeSocket, connectSocket, getSocketStatus } from '../realtime/socket';
import { reloadToUpdate } from '../lib/serviceWorker';
import { UpdateRequiredBanner } from './UpdateRequiredBanner';
import { inEnglish } from '../lib/i18n/testing';

// A socket.io server checking the protocol version as the API does; `newer` stands for a server
// that has moved past this build.
let httpServer: http.Server;
let io: Server;
let url: string;
let newer: boolean;

beforeEach(async () => {
  newer = false;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  httpServer = http.createServer();
  io = new Server(httpServer, { path: '/socket.io' });
  io.use((socket, next) => {
    const { protocol } = socket.handshake.auth as { protocol?: unknown };
    if (newer || !isSupportedProtocol(protocol))
      next(Object.assign(new Error(PROTOCOL_OUTDATED_MESSAGE), { data: { code: PROTOCOL_OUTDATED } }));
    else next();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

afterEach(() => {
  closeSocket();
  io.close();
  vi.restoreAllMocks();
});

const banner = () => renderToStaticMarkup(inEnglish(<UpdateRequiredBanner />));
const ada = { token: 'tok', userId: 'u1', username: 'ada' };

describe('the update banner', () => {
  it('stays hidden while this build speaks the server’s protocol', async () => {
    connectSocket(ada, { url, reconnection: false });
    await vi.waitFor(() => expect(getSocketStatus()).toBe('connected'));
    expect(banner()).toBe('');
  });

  it('asks for a reload, as an alert with a Reload button, once the server refuses this build as outdated', async () => {
    newer = true;
    expect(banner()).toBe('');
    connectSocket(ada, { url, reconnection: false });
    await vi.waitFor(() => expect(getSocketStatus()).toBe('failed'));
    const html = banner();
    expect(html).toMatch(new RegExp(`<p id="([^"]+)" role="alert"[^>]*>${PROTOCOL_OUTDATED_MESSAGE}</p>`));
    const id = /<p id="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`<section aria-labelledby="${id}"`);
    expect(html).toMatch(/<button type="button"[^>]*>Reload<\/button>/);
    // Signed out (or the tab closes its socket): nothing left to update for.
    closeSocket();
    expect(banner()).toBe('');
  });
});

/** A service worker and its container, as far as reloadToUpdate uses them. */
function fakeWorkers({ waiting = false, newerOnServer = false, controlled = true } = {}) {
  const posted: unknown[] = [];
  const container = new EventTarget() as EventTarget & { controller: object | null; getRegistration(): Promise<unknown> };
  const worker = (state: string) => {
    const w = new EventTarget() as EventTarget & { state: string; postMessage(m: unknown): void };
    w.state = state;
    w.postMessage = (m) => {
      posted.push(m);
      // The worker's skipWaiting (sw.ts): it activates and claims the page.
      setTimeout(() => container.dispatchEvent(new Event('controllerchange')), 5);
    };
    return w;
  };
  const registration = {
    waiting: waiting ? worker('installed') : null,
    installing: null as ReturnType<typeof worker> | null,
    update: vi.fn(async () => {
      if (!newerOnServer) return;
      const w = worker('installing');
      registration.installing = w;
      setTimeout(() => {
        w.state = 'installed';
        w.dispatchEvent(new Event('statechange'));
      }, 5);
    }),
  };
  container.controller = controlled ? {} : null;
  container.getRegistration = async () => registration;
  return { container: container as unknown as ServiceWorkerContainer, registration, posted };
}

describe('Reload', () => {
  it('lets a waiting worker take over, then reloads', async () => {
    const { container, registration, posted } = fakeWorkers({ waiting: true });
    const reload = vi.fn();
    await reloadToUpdate({ container, reload, waitMs: 2000 });
    expect(posted).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(registration.update).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('with none waiting, asks the server for the new worker and waits for it to install before it takes over', async () => {
    const { container, registration, posted } = fakeWorkers({ newerOnServer: true });
    const reload = vi.fn();
    await reloadToUpdate({ container, reload, waitMs: 2000 });
    expect(registration.update).toHaveBeenCalledTimes(1);
    expect(posted).toEqual([{ type: 'SKIP_WAITING' }]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads at once when there is no newer worker, no worker at all, or the check fails', async () => {
    const none = fakeWorkers();
    const reload = vi.fn();
    await reloadToUpdate({ container: none.container, reload, waitMs: 2000 });
    expect(none.posted).toEqual([]);
    await reloadToUpdate({ container: undefined, reload });
    const failing = { getRegistration: () => Promise.reject(new Error('offline')) } as unknown as ServiceWorkerContainer;
    await reloadToUpdate({ container: failing, reload });
    expect(reload).toHaveBeenCalledTimes(3);
  });
});
