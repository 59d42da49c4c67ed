import { useEffect, useMemo, useSyncExternalStore } from 'react';
import {
  activityCheck,
  joinAnswerCheck,
  peopleChangedCheck,
  readReceiptCheck,
  removedCheck,
  mutedCheck,
  roomTypingCheck,
  roomMessageCheck,
  roomEvents as wire,
  isRetryableRoomRefusal,
  PAGE_MAX,
  type MessagePage,
  type PostAnswer,
  type RemovedFromRoom,
  type RoomMemberView,
  type RoomMessage,
  type UnreadNotice,
} from '@parley/contract/rooms';
import { MESSAGING_REQUEST_TIMEOUT_MS } from '@parley/contract/constants';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ATTACHMENT_ERR, type AttachmentKind, type MessageAttachment } from '@parley/contract/attachments';
import { primeAttachment } from './attachmentCache';
import { checkPayload, emitSocket, emitSocketWithAck, getSocketStatus, onSocketEvent, subscribeSocketStatus } from './socket';
import { caughtUpTo, firstGap, mergeMessages, replaceMessage } from './storedMessages';

/**
 * One stored room (group or direct) open on a page: it follows the room live whenever the socket
 * is connected, catching up from the last id it holds each time it (re)connects, so nothing said
 * meanwhile is missed and nothing is shown twice. Both the group and the direct pages use it.
 */

/** A picture or voice message of ours on its way: our own copy (shown meanwhile), and the upload once made. */
export type PendingAttachment = {
  kind: AttachmentKind;
  blob: Blob;
  /** An object URL of `blob`, shown while it goes and kept for the sent message. */
  localUrl: string;
  durationMs?: number;
  uploaded?: MessageAttachment;
};

/** A message of ours on its way: shown at the end until the server's copy (with its id) replaces it. */
export type PendingMessage = {
  clientId: string;
  text: string;
  replyTo: number | null;
  status: 'sending' | 'failed';
  problem?: string;
  attachment?: PendingAttachment;
};

export type StoredRoomState = {
  phase: 'joining' | 'open' | 'refused' | 'removed';
  messages: RoomMessage[];
  pending: PendingMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The last id read when the page opened the room: the first unread message is the one after it. */
  readAtOpen: number | null;
  /** Others' read positions (direct rooms): receipts. */
  readBy: Record<string, number>;
  people: RoomMemberView[];
  typing: Record<string, string>;
  refusal: { message: string; code: string } | null;
  removed: RemovedFromRoom | null;
  /** Until when (epoch ms) this user is muted here, or null. */
  mutedUntil: number | null;
  /** After a jump to an old message: the id after which messages are missing until the next held one, or null. */
  gapAfter: number | null;
  loadingGap: boolean;
};

export type StoredRoomDeps = {
  roomId: string;
  /** A page of history through the API (the app's request helper, with its token refresh). */
  fetchPage(q: { before?: number; after?: number; around?: number; limit: number }): Promise<MessagePage>;
  /** Something the user should hear about (a refused send, an edit that failed). */
  notify(n: { title: string; description: string }): void;
  /**
   * Group rooms: the room's hosted channel (Ably), which carries its live events instead of
   * socket.io when the server has a key. Resolves once it is following (or gave up waiting).
   */
  followHosted?(roomId: string, onEvent: (name: string, data: unknown) => void, onGap: () => void): Promise<() => void>;
  /**
   * False when the page must be let in first on each connection (a stream's viewer watches, then
   * joins its chat): it calls `rejoin()` then. By default the room joins on every connection.
   */
  joinOnConnect?: boolean;
  /**
   * Group and direct rooms: uploads a picture or a voice message for a message to carry. Rejects
   * with `{ message }` when the server refused it (said to the user), anything else when offline.
   */
  upload?(kind: AttachmentKind, blob: Blob): Promise<MessageAttachment>;
};

/** Someone's typing indicator goes by itself after this long without news (their "stopped" may be lost). */
const TYPING_STALE_MS = 6000;
/** A jump to a message brings this many around it. */
const PAGE_AROUND = 50;
/** A long absence catches up at most this many pages forward; past that the page starts again from the latest. */
const CATCH_UP_PAGES = 20;
/**
 * A post refused as retryable (the chat moving between servers in a restart) goes again by itself
 * this many times, a second or as told apart; then with the next join, as one that had no answer.
 */
const RETRIES = 5;

/** A room's state before it is joined: nothing held, nobody here. */
export const emptyRoomState = (): StoredRoomState => ({
  phase: 'joining',
  messages: [],
  pending: [],
  hasOlder: false,
  loadingOlder: false,
  readAtOpen: null,
  readBy: {},
  people: [],
  typing: {},
  refusal: null,
  removed: null,
  mutedUntil: null,
  gapAfter: null,
  loadingGap: false,
});

let clientSeq = 0;
const newClientId = () => `${Date.now().toString(36)}-${(clientSeq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function createStoredRoom(deps: StoredRoomDeps) {
  const { roomId } = deps;
  let state = emptyRoomState();
  const listeners = new Set<() => void>();
  const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  let readSent = 0;
  let joinRun = 0;
  /** Joined once: every message up to `caught` is held (a catch-up asks for what follows it). */
  let joined = false;
  let caught = 0;
  let closed = false;
  // Joining waits for the hosted channel: following it first means nothing falls between the two.
  let hostedReady: Promise<() => void> | undefined;

  /** A jump brought an old page: the messages may hold a gap from then on. */
  let jumped = false;

  const set = (patch: Partial<StoredRoomState> | ((s: StoredRoomState) => Partial<StoredRoomState>)) => {
    const before = state.messages;
    state = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
    if (jumped && state.messages !== before) state = { ...state, gapAfter: firstGap(state.messages) };
    for (const l of listeners) l();
  };
  const ours = (p: { roomId: string }) => p.roomId === roomId;

  function receive(messages: RoomMessage[]) {
    const clientIds = new Set(messages.map((m) => m.clientId).filter(Boolean));
    set((s) => ({
      messages: mergeMessages(s.messages, messages),
      pending: clientIds.size ? s.pending.filter((p) => !clientIds.has(p.clientId)) : s.pending,
    }));
    if (joined) caught = caughtUpTo(state.messages, caught);
  }
  /** What a join or a page brought: held without a gap up to its last id (or `after`, when it brought nothing). */
  function caughtUpThrough(last: number | undefined) {
    joined = true;
    caught = caughtUpTo(state.messages, Math.max(caught, last ?? caught));
  }

  async function join() {
    const run = ++joinRun;
    // Where to catch up from is decided before waiting for the hosted channel.
    const after = joined ? caught : undefined;
    if (deps.followHosted) {
      await hostedReady;
      if (run !== joinRun || closed) return;
    }
    let raw: unknown;
    try {
      raw = await emitSocketWithAck(wire.join, after === undefined ? { roomId } : { roomId, after }, MESSAGING_REQUEST_TIMEOUT_MS);
    } catch {
      return; // the connection went again; the next connect joins again
    }
    if (run !== joinRun || closed) return;
    const answer = checkPayload('rooms', joinAnswerCheck, wire.join, raw);
    if (!answer) return;
    if (!answer.ok) return set({ phase: 'refused', refusal: { message: answer.message, code: answer.code } });
    receive(answer.messages);
    caughtUpThrough(answer.messages.at(-1)?.id);
    set((s) => ({
      phase: 'open',
      hasOlder: after === undefined ? answer.hasOlder : s.hasOlder,
      readAtOpen: s.readAtOpen ?? answer.lastReadId,
      readBy: answer.readBy,
      people: answer.people,
      refusal: null,
      mutedUntil: answer.mutedUntil,
    }));
    // Away longer than a page: the rest comes page by page, live messages merging in meanwhile.
    let more = answer.hasNewer;
    for (let i = 0; more && i < CATCH_UP_PAGES && run === joinRun; i++) {
      const page = await deps.fetchPage({ after: caught, limit: PAGE_MAX }).catch(() => null);
      if (!page) break;
      receive(page.messages);
      caughtUpThrough(page.messages.at(-1)?.id);
      more = page.hasMore;
    }
    // Messages that failed while we were away go again now (same client id: the server's copy replaces them).
    for (const p of state.pending.filter((x) => x.status === 'failed' && !x.problem)) void post(p);
  }

  function stopTyping(userId: string) {
    clearTimeout(typingTimers.get(userId));
    typingTimers.delete(userId);
    set((s) => {
      if (!(userId in s.typing)) return {};
      const typing = { ...s.typing };
      delete typing[userId];
      return { typing };
    });
  }

  const failed = (clientId: string, problem?: string) =>
    set((s) => ({
      pending: s.pending.map((x) => (x.clientId === clientId ? { ...x, status: 'failed', ...(problem && { problem }) } : x)),
    }));

  /** The upload a pending message carries, made now when it was not yet; undefined when it failed (said so). */
  async function uploaded(p: PendingMessage): Promise<MessageAttachment | undefined> {
    const a = state.pending.find((x) => x.clientId === p.clientId)?.attachment ?? p.attachment;
    if (!a || a.uploaded) return a?.uploaded;
    if (!deps.upload) return void failed(p.clientId, ATTACHMENT_ERR.notHere);
    try {
      const done = await deps.upload(a.kind, a.blob);
      primeAttachment([done.url, done.thumbUrl], a.localUrl);
      set((s) => ({
        pending: s.pending.map((x) =>
          x.clientId === p.clientId && x.attachment ? { ...x, attachment: { ...x.attachment, uploaded: done } } : x,
        ),
      }));
      return done;
    } catch (err) {
      const problem = (err as { message?: unknown } | null)?.message;
      failed(p.clientId, typeof problem === 'string' ? problem : undefined);
      if (typeof problem === 'string') deps.notify({ title: 'Message not sent', description: problem });
      return undefined;
    }
  }
  /** Retryable refusals in a row per message (client id), and the timer of its next attempt. */
  const retries = new Map<string, { count: number; timer: ReturnType<typeof setTimeout> }>();

  async function post(p: PendingMessage) {
    clearTimeout(retries.get(p.clientId)?.timer);
    set((s) => ({ pending: s.pending.map((x) => (x.clientId === p.clientId ? { ...x, status: 'sending', problem: undefined } : x)) }));
    let attachment: MessageAttachment | undefined;
    if (p.attachment) {
      attachment = await uploaded(p);
      if (!attachment) return;
    }
    let answer: PostAnswer;
    try {
      answer = await emitSocketWithAck<PostAnswer>(
        wire.post,
        {
          roomId,
          clientId: p.clientId,
          text: p.text,
          ...(p.replyTo ? { replyTo: p.replyTo } : {}),
          ...(attachment && { attachment: attachment.id }),
        },
        MESSAGING_REQUEST_TIMEOUT_MS,
      );
    } catch {
      // No connection or no answer: it goes again on the next join.
      return failed(p.clientId);
    }
    if (answer.ok) {
      retries.delete(p.clientId);
      const m = checkPayload('rooms', roomMessageCheck, wire.post, answer.message);
      if (m) receive([m]);
      return;
    }
    // Nothing wrong with the message (the server was restarting): it goes again, under its client
    // id (kept once however often it arrives), without a word to the user.
    const count = (retries.get(p.clientId)?.count ?? 0) + 1;
    if (isRetryableRoomRefusal(answer.code) && count <= RETRIES && !closed) {
      set((s) => ({ pending: s.pending.map((x) => (x.clientId === p.clientId ? { ...x, status: 'failed' } : x)) }));
      const again = () => {
        const still = state.pending.find((x) => x.clientId === p.clientId);
        if (still && !closed && getSocketStatus() === 'connected') void post(still);
      };
      retries.set(p.clientId, { count, timer: setTimeout(again, (answer.retryAfterS ?? 1) * 1000) });
      return;
    }
    retries.delete(p.clientId);
    set((s) => ({ pending: s.pending.map((x) => (x.clientId === p.clientId ? { ...x, status: 'failed', problem: answer.message } : x)) }));
    deps.notify({ title: 'Message not sent', description: answer.message });
  }

  async function act(event: string, payload: Record<string, unknown>, what: string) {
    try {
      const a = await emitSocketWithAck<{ ok: boolean; message?: string }>(event, { roomId, ...payload }, MESSAGING_REQUEST_TIMEOUT_MS);
      if (!a.ok) deps.notify({ title: `Could not ${what}`, description: a.message ?? 'Try again.' });
      return a.ok;
    } catch {
      deps.notify({ title: `Could not ${what}`, description: 'You are offline. Try again once reconnected.' });
      return false;
    }
  }

  const off: Array<() => void> = [];
  return {
    getState: () => state,
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    /** Follows the room: joins now when connected and again after every reconnection. */
    start() {
      closed = false;
      const handlers: Record<string, (raw: unknown) => void> = {
        [wire.message]: (raw) => {
          const m = checkPayload('rooms', roomMessageCheck, wire.message, raw);
          if (m && ours(m)) {
            receive([m]);
            stopTyping(m.senderId);
          }
        },
        [wire.changed]: (raw) => {
          const m = checkPayload('rooms', roomMessageCheck, wire.changed, raw);
          if (m && ours(m)) set((s) => ({ messages: replaceMessage(s.messages, m) }));
        },
        [wire.typing]: (raw) => {
          const t = checkPayload('rooms', roomTypingCheck, wire.typing, raw);
          if (!t || !ours(t)) return;
          if (!t.typing) return stopTyping(t.userId);
          clearTimeout(typingTimers.get(t.userId));
          typingTimers.set(
            t.userId,
            setTimeout(() => stopTyping(t.userId), TYPING_STALE_MS),
          );
          set((s) => ({ typing: { ...s.typing, [t.userId]: t.username } }));
        },
        [wire.read]: (raw) => {
          const r = checkPayload('rooms', readReceiptCheck, wire.read, raw);
          if (r && ours(r)) set((s) => ({ readBy: { ...s.readBy, [r.userId]: Math.max(s.readBy[r.userId] ?? 0, r.lastReadId) } }));
        },
        [wire.people]: (raw) => {
          const p = checkPayload('rooms', peopleChangedCheck, wire.people, raw);
          if (p && ours(p)) set({ people: p.people });
        },
        [wire.muted]: (raw) => {
          const m = checkPayload('rooms', mutedCheck, wire.muted, raw);
          if (m && ours(m)) set({ mutedUntil: m.mutedUntil });
        },
        [wire.removed]: (raw) => {
          const r = checkPayload('rooms', removedCheck, wire.removed, raw);
          if (r && ours(r)) set({ phase: 'removed', removed: r });
        },
      };
      if (deps.followHosted) {
        const ready = deps
          .followHosted(
            roomId,
            (name, data) => handlers[name]?.(data),
            () => {
              if (!closed && getSocketStatus() === 'connected' && state.phase !== 'removed') void join();
            },
          )
          .catch(() => () => undefined);
        hostedReady = ready;
        off.push(() => void ready.then((stop) => stop()));
      }
      off.push(
        ...Object.entries(handlers).map(([event, handler]) => onSocketEvent(event, handler)),
        subscribeSocketStatus(() => {
          if (deps.joinOnConnect !== false && getSocketStatus() === 'connected' && state.phase !== 'removed') void join();
        }),
      );
      if (deps.joinOnConnect !== false && getSocketStatus() === 'connected') void join();
    },
    /** Joins again now (catching up from the last id held, resending what failed): the page was let in. */
    rejoin() {
      if (!closed && getSocketStatus() === 'connected' && state.phase !== 'removed') void join();
    },
    stop() {
      closed = true;
      for (const r of retries.values()) clearTimeout(r.timer);
      for (const o of off.splice(0)) o();
      for (const t of typingTimers.values()) clearTimeout(t);
      emitSocket(wire.unwatch, { roomId });
    },
    send(text: string, replyTo: number | null = null) {
      const p: PendingMessage = { clientId: newClientId(), text, replyTo, status: 'sending' };
      set((s) => ({ pending: [...s.pending, p] }));
      void post(p);
    },
    /** A picture or a voice message (with a caption, or none), sent as soon as it is uploaded. */
    sendAttachment(kind: AttachmentKind, blob: Blob, text = '', durationMs?: number) {
      const attachment: PendingAttachment = {
        kind,
        blob,
        localUrl: URL.createObjectURL(blob),
        ...(durationMs !== undefined && { durationMs }),
      };
      const p: PendingMessage = { clientId: newClientId(), text, replyTo: null, status: 'sending', attachment };
      set((s) => ({ pending: [...s.pending, p] }));
      void post(p);
    },
    retry(clientId: string) {
      const p = state.pending.find((x) => x.clientId === clientId);
      if (p) void post(p);
    },
    discard(clientId: string) {
      const gone = state.pending.find((x) => x.clientId === clientId);
      set((s) => ({ pending: s.pending.filter((x) => x.clientId !== clientId) }));
      if (gone?.attachment && !gone.attachment.uploaded) URL.revokeObjectURL(gone.attachment.localUrl);
    },
    edit: (id: number, text: string) => act(wire.edit, { id, text }, 'edit the message'),
    remove: (id: number) => act(wire.delete, { id }, 'delete the message'),
    react: (id: number, emoji: string, on: boolean) => act(wire.react, { id, emoji, on }, 'react'),
    typing(on: boolean) {
      emitSocket(wire.typing, { roomId, typing: on });
    },
    /** Moves our read position on (only forward; the server keeps the highest). */
    markRead(id: number) {
      if (id <= readSent) return;
      readSent = id;
      emitSocket(wire.read, { roomId, lastReadId: id });
    },
    /** Brings the message `id` and those around it (a search's hit), unless it is held already; false when it could not. */
    async jumpTo(id: number): Promise<boolean> {
      if (state.messages.some((m) => m.id === id)) return true;
      try {
        const page = await deps.fetchPage({ around: id, limit: PAGE_AROUND });
        jumped = true;
        set((s) => {
          const older = page.messages[0] !== undefined && (s.messages[0] === undefined || page.messages[0].id < s.messages[0].id);
          return { messages: mergeMessages(s.messages, page.messages), hasOlder: older ? page.hasMore : s.hasOlder };
        });
        return state.messages.some((m) => m.id === id);
      } catch {
        deps.notify({ title: i18n._(msg`Could not open that message`), description: i18n._(msg`Check your connection and try again.`) });
        return false;
      }
    },
    /** Fills the gap a jump left, a page at a time from its older side. */
    async loadGap() {
      const after = state.gapAfter;
      if (after === null || state.loadingGap) return;
      set({ loadingGap: true });
      try {
        const page = await deps.fetchPage({ after, limit: PAGE_MAX });
        set((s) => ({ messages: mergeMessages(s.messages, page.messages) }));
      } catch {
        deps.notify({ title: i18n._(msg`Could not load newer messages`), description: i18n._(msg`Check your connection and try again.`) });
      } finally {
        set({ loadingGap: false });
      }
    },
    async loadOlder() {
      if (state.loadingOlder || !state.hasOlder) return;
      set({ loadingOlder: true });
      try {
        const page = await deps.fetchPage({ before: state.messages[0]?.id, limit: 50 });
        set((s) => ({ messages: mergeMessages(s.messages, page.messages), hasOlder: page.hasMore }));
      } catch {
        deps.notify({ title: 'Could not load older messages', description: 'Check your connection and try again.' });
      } finally {
        set({ loadingOlder: false });
      }
    },
  };
}

export type StoredRoomConnection = ReturnType<typeof createStoredRoom>;

/** A stored room for as long as the component showing it is mounted. */
export function useStoredRoom(deps: StoredRoomDeps | null): [StoredRoomState, StoredRoomConnection | null] {
  const roomId = deps?.roomId;
  // A new room only when the room changes; fetchPage and notify are read through the first deps.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const room = useMemo(() => (deps ? createStoredRoom(deps) : null), [roomId]);
  useEffect(() => {
    if (!room) return;
    room.start();
    return () => room.stop();
  }, [room]);
  const state = useSyncExternalStore(
    (l) => room?.subscribe(l) ?? (() => undefined),
    () => room?.getState() ?? EMPTY,
    () => EMPTY,
  );
  return [state, room];
}
const EMPTY = emptyRoomState();

/** Calls `onActivity` when any stored room of the user moves on (a direct message for an unread count). */
export function onRoomActivity(onActivity: (n: UnreadNotice) => void): () => void {
  return onSocketEvent(wire.activity, (raw: unknown) => {
    const n = checkPayload('rooms', activityCheck, wire.activity, raw);
    if (n) onActivity(n);
  });
}
