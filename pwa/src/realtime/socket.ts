import { useSyncExternalStore } from 'react';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { chatEvents } from '@parley/contract/matchmaking';
import {
  presenceEvents,
  applyOnlineUsersDelta,
  mergeOnlineUsers,
  type OnlineUser,
  type OnlineUsersDelta,
  type OnlineUsersPage,
} from '@parley/contract/presence';
import { authEvents } from '@parley/contract/auth';
import { SOCKET_RECONNECTION } from '@parley/contract/constants';
import { connectionEvents, isProtocolOutdated, REALTIME_PROTOCOL, type HandshakeAuth } from '@parley/contract/protocol';
import { safetyEvents } from '@parley/contract/safety';
import { isBanNotice, rememberBanNotice } from '../lib/banNotice';
import { reloadToUpdate } from '../lib/serviceWorker';
import { i18n } from '@lingui/core';
import { isShippedLocale } from '../lib/i18n/locales';
import { msg } from '@lingui/core/macro';

/**
 * The one realtime connection of this tab. A small module-level manager so that every feature
 * (text chat, video chat, presence) shares it without importing each other: features subscribe
 * to events here, and the app's RealtimeProvider drives the lifecycle from the signed-in user.
 */

export type SocketIdentity = { token: string; userId: string; username: string };

/** What the connection is doing, as the UI needs to know it. */
export type SocketStatus =
  /** no user, or closed on purpose by this client */
  | 'closed'
  | 'connecting'
  | 'connected'
  /** the connection dropped; socket.io retries with backoff */
  | 'reconnecting'
  /** retries exhausted or the handshake was refused (getSocketFailure says why) */
  | 'failed'
  /** the server ended this session on purpose (signed out elsewhere, banned) */
  | 'ended';

/**
 * Why the connection failed: retries used up (a manual reconnect helps), the handshake refused (a
 * fresh token helps), or this build is older than the server speaks (only a reload helps).
 */
export type SocketFailure = 'exhausted' | 'refused' | 'outdated' | null;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket payloads are validated by each subscriber
type Handler = (...args: any[]) => void;
type Options = Partial<ManagerOptions & SocketOptions>;

/**
 * This page's id for its connection (handshake query `tab`): when the network drops and the socket
 * reconnects, the server replaces the old connection at once (rather than after its ping times
 * out) and gives this page back a text chat it held meanwhile (`chat:resume`). getRandomValues
 * works outside secure contexts too (unlike randomUUID).
 */
const TAB_ID = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

let socket: Socket | null = null;
let identity: SocketIdentity | null = null;
let status: SocketStatus = 'closed';
let failure: SocketFailure = null;
/** Who is online as this tab knows it: everyone's count, the users of the pages it holds, the next page's cursor. */
export type OnlinePresence = { count: number; users: OnlineUser[]; cursor: string | null };
const NOBODY: OnlinePresence = { count: 0, users: [], cursor: null };
let online: OnlinePresence = NOBODY;
/** A page asked for and not answered yet: asked once. */
let pageAsked = false;
const statusListeners = new Set<() => void>();
const onlineListeners = new Set<() => void>();
const handlers = new Map<string, Set<Handler>>();

function setStatus(next: SocketStatus, why: SocketFailure = null) {
  if (status === next && failure === why) return;
  status = next;
  failure = why;
  for (const l of statusListeners) l();
}

function setOnline(next: OnlinePresence) {
  online = next;
  for (const l of onlineListeners) l();
}

function isOnlineUserList(value: unknown): value is OnlineUser[] {
  return (
    Array.isArray(value) &&
    value.every(
      (u) =>
        typeof u === 'object' &&
        u !== null &&
        typeof (u as OnlineUser).userId === 'string' &&
        typeof (u as OnlineUser).username === 'string',
    )
  );
}

function isOnlineUsersDelta(value: unknown): value is OnlineUsersDelta {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as OnlineUsersDelta;
  return (
    typeof d.count === 'number' && isOnlineUserList(d.added) && Array.isArray(d.removed) && d.removed.every((id) => typeof id === 'string')
  );
}

function isOnlineUsersPage(value: unknown): value is OnlineUsersPage {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as OnlineUsersPage;
  return typeof p.count === 'number' && isOnlineUserList(p.users) && (p.cursor === null || typeof p.cursor === 'string');
}

/** The longest a restart notice may ask this tab to wait before it reconnects. */
const RESTART_WAIT_MAX_MS = 5000;

/**
 * The server is restarting (a rolling deploy) and asked its clients to reconnect: at a random
 * moment within its window (so they do not all arrive at once), this tab drops its connection as a
 * lost one (the server holds its chat for it) and opens a new one at once, which the proxy sends to
 * another replica. Only "reconnecting" shows meanwhile.
 */
function followRestart(s: Socket, notice: unknown) {
  const asked = (notice as { reconnectWithinMs?: unknown } | null)?.reconnectWithinMs;
  const within = typeof asked === 'number' && Number.isFinite(asked) ? Math.min(Math.max(asked, 0), RESTART_WAIT_MAX_MS) : 1000;
  setTimeout(() => {
    if (socket !== s || !s.connected) return;
    // Closed without the manager's backoff (a second or more); a failed first attempt falls back to it.
    s.io.reconnection(false);
    s.io.engine.close();
    s.io.reconnection(true);
    s.connect();
  }, Math.random() * within);
}

/** Back online after the retries gave up (a phone out of coverage for a while): try again at once. */
if (typeof window !== 'undefined')
  window.addEventListener('online', () => {
    if (status === 'failed' && failure === 'exhausted') reconnectSocket();
  });

/** The handshake's `auth`: the access token, the protocol version this build speaks and the language it shows. */
const handshakeAuth = (token: string): HandshakeAuth => ({
  token,
  protocol: REALTIME_PROTOCOL,
  ...(isShippedLocale(i18n.locale) && { locale: i18n.locale }),
});

/**
 * Opens the connection for this user, or, when it is already open for them, only swaps the
 * access token used by the next (re)connection: a token refresh must not drop the chat.
 * `options` exist for tests (a server URL, shorter delays).
 */
export function connectSocket(next: SocketIdentity, options: Options & { url?: string } = {}): void {
  if (socket && identity?.userId === next.userId && identity.username === next.username) {
    identity = next;
    socket.auth = handshakeAuth(next.token);
    // A handshake refused for an expired token can succeed with the fresh one.
    if (status === 'failed' && failure === 'refused') reconnectSocket();
    return;
  }
  closeSocket();
  identity = next;
  const { url, ...rest } = options;
  const s = io(url ?? window.location.origin, {
    path: '/socket.io',
    auth: handshakeAuth(next.token),
    query: { userId: next.userId, username: next.username, tab: TAB_ID },
    // WebSocket first so that a close on page unload reaches the server at once.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    ...SOCKET_RECONNECTION,
    ...rest,
  });
  socket = s;
  setStatus('connecting');

  s.on('connect', () => setStatus('connected'));
  s.on('disconnect', (reason) => {
    pageAsked = false;
    setOnline(NOBODY);
    if (reason === 'io server disconnect') setStatus('ended');
    else if (reason === 'io client disconnect') setStatus('closed');
    else setStatus('reconnecting');
  });
  s.on('connect_error', (err) => {
    console.error('[socket] connection error:', err.message);
    // This build is too old for the server: retrying cannot help, only a reload (UpdateRequiredBanner).
    if (isProtocolOutdated(err)) {
      s.disconnect();
      return setStatus('failed', 'outdated');
    }
    // Not active: the server's middleware refused the handshake and socket.io will not retry.
    if (!s.active) setStatus('failed', 'refused');
    else if (status !== 'connecting') setStatus('reconnecting');
  });
  s.io.on('reconnect_failed', () => setStatus('failed', 'exhausted'));
  s.io.on('error', (err) => console.error('[socket] transport error:', err.message));
  // Banned or suspended: the rule and the appeal link come just before the end of the session.
  s.on(safetyEvents.banned, (notice: unknown) => {
    if (isBanNotice(notice)) rememberBanNotice(notice);
    else console.error('[socket] malformed ban notice');
  });
  s.on(authEvents.sessionEnd, () => setStatus('ended'));
  s.on(connectionEvents.restarting, (notice: unknown) => followRestart(s, notice));
  // The first page starts the list over; further pages add to it; deltas change what it holds.
  s.on(presenceEvents.onlineUsers, (page: unknown) => {
    pageAsked = false;
    if (isOnlineUsersPage(page)) setOnline(page);
    else console.error('[socket] malformed online users page');
  });
  s.on(presenceEvents.onlineUsersPage, (page: unknown) => {
    pageAsked = false;
    if (isOnlineUsersPage(page)) setOnline({ count: page.count, users: mergeOnlineUsers(online.users, page.users), cursor: page.cursor });
    else console.error('[socket] malformed online users page');
  });
  s.on(presenceEvents.onlineUsersDelta, (delta: unknown) => {
    if (isOnlineUsersDelta(delta)) setOnline({ ...online, count: delta.count, users: applyOnlineUsersDelta(online.users, delta) });
    else console.error('[socket] malformed online users delta');
  });
  s.on(chatEvents.error, (e: unknown) => {
    console.error('[socket] server error event:', e);
    // A page refused (too many asked): the next ask may go.
    if ((e as { event?: unknown } | null)?.event === presenceEvents.more) pageAsked = false;
  });
  s.onAny((event: string, ...args: unknown[]) => {
    const set = handlers.get(event);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(...args);
      } catch (err) {
        console.error(`[socket] handler for ${event} failed:`, err);
      }
    }
  });
}

export type SocketNotice = { title: string; description: string; action?: { label: string; onClick: () => void } };

/**
 * Why a start or skip could not be sent: reconnecting by itself, given up (then with the Reconnect
 * action), or this build too old for the server (then with Reload).
 */
export function offlineNotice(): SocketNotice {
  if (status !== 'failed')
    return { title: i18n._(msg`You are offline`), description: i18n._(msg`Parley is reconnecting. Try again in a moment.`) };
  if (failure === 'outdated')
    return {
      title: i18n._(msg`Parley has been updated`),
      description: i18n._(msg`Reload to get the new version.`),
      action: { label: i18n._(msg`Reload`), onClick: () => void reloadToUpdate() },
    };
  return {
    title: i18n._(msg`You are offline`),
    description: i18n._(msg`Parley could not reach the server. Check your connection, then reconnect.`),
    action: { label: i18n._(msg`Reconnect`), onClick: reconnectSocket },
  };
}

/** Closes the connection (sign-out, page unload). Presence on the server ends at once. */
export function closeSocket(): void {
  const s = socket;
  socket = null;
  identity = null;
  if (s) {
    s.removeAllListeners();
    s.io.removeAllListeners();
    s.offAny();
    s.disconnect();
  }
  pageAsked = false;
  setOnline(NOBODY);
  setStatus('closed');
}

/** A fresh round of connection attempts, e.g. from the toast's Reconnect action; none for an outdated build. */
export function reconnectSocket(): void {
  if (!socket || socket.connected || failure === 'outdated') return;
  setStatus('connecting');
  socket.connect();
}

/** Subscribes to a server event for as long as the returned function is not called. */
export function onSocketEvent(event: string, handler: Handler): () => void {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler);
  return () => {
    set.delete(handler);
    if (set.size === 0) handlers.delete(event);
  };
}

/** Sends an event now; false when there is no live connection (nothing is queued for later). */
export function emitSocket(event: string, ...args: unknown[]): boolean {
  if (!socket?.connected) return false;
  socket.emit(event, ...args);
  return true;
}

/** Sends an event and waits for the server's acknowledgement; rejects when offline or on timeout. */
export async function emitSocketWithAck<T>(event: string, payload: unknown, timeoutMs: number): Promise<T> {
  if (!socket?.connected) throw new Error('Not connected');
  return (await socket.timeout(timeoutMs).emitWithAck(event, payload)) as T;
}

export function getSocketStatus(): SocketStatus {
  return status;
}

export function getSocketFailure(): SocketFailure {
  return failure;
}

export function getOnlinePresence(): OnlinePresence {
  return online;
}

/** Asks for the next page of who is online, when there is one and none is on its way; false otherwise. */
export function loadMoreOnlineUsers(): boolean {
  if (!socket?.connected || online.cursor === null || pageAsked) return false;
  pageAsked = true;
  socket.emit(presenceEvents.more, { cursor: online.cursor });
  return true;
}

export function subscribeSocketStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function subscribeOnlineUsers(listener: () => void): () => void {
  onlineListeners.add(listener);
  return () => onlineListeners.delete(listener);
}

/** The connection's status, re-rendering on change. */
export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(subscribeSocketStatus, getSocketStatus, getSocketStatus);
}

/** Why the connection failed, when it did, re-rendering on change. */
export function useSocketFailure(): SocketFailure {
  return useSyncExternalStore(subscribeSocketStatus, getSocketFailure, getSocketFailure);
}

/** Who is online (`getOnlineUsers`): the count of everyone, and the pages of users this tab holds. */
export function useOnlinePresence(): OnlinePresence {
  return useSyncExternalStore(subscribeOnlineUsers, getOnlinePresence, getOnlinePresence);
}

/** Checks a server payload against its contract schema; a malformed one is logged, never used. */
export function checkPayload<T>(
  area: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: unknown } } },
  event: string,
  payload: unknown,
): T | null {
  const r = schema.safeParse(payload);
  if (r.success) return r.data;
  console.error(`[${area}] malformed ${event} payload`, r.error.issues);
  return null;
}
