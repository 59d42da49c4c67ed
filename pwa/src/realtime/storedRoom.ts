import { useEffect, useMemo, useSyncExternalStore } from 'react';
import {
  activityCheck,
  joinAnswerCheck,
  peopleChangedCheck,
  readReceiptCheck,
  removedCheck,
  mutedCheck,
  restrictionsCheck,
  picturesAllowedCheck,
  roomTypingCheck,
  roomMessageCheck,
  threadAnswerCheck,
  threadNoticeCheck,
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
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ATTACHMENT_ERR, type AttachmentKind, type MessageAttachment } from '@parley/contract/attachments';
import { primeAttachment } from './attachmentCache';
import type { MessageMedia } from '@parley/contract/media';
import { checkPayload, emitSocket, emitSocketWithAck, getSocketStatus, onSocketEvent, subscribeSocketStatus } from './socket';
import { caughtUpTo, mergeMessages, nextHeld, replaceMessage } from './storedMessages';

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
  /** A sticker or GIF as the picker showed it; the server checks the id and sends back its own copy. */
  media?: MessageMedia;
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
  /** A thread: the message it hangs from (null until opened, and for a room). */
  root: RoomMessage | null;
  /** A thread: whether this user follows it (told of its replies). */
  following: boolean;
  /** A group room: this user's unread replies per thread they follow (root id → count). */
  threadUnread: Record<string, number>;
  /** A 1:1 chat: who of the two allow pictures in it now (user ids); null where the room has no such choice. */
  picturesAllowedBy: string[] | null;
  /**
   * Counts the times its mutes, bans or slow mode were told changed (to its owner and moderators)
   * or may have changed unseen (a join after a drop): a page listing them reads them again when it moves.
   */
  restrictionsChanged: number;
};

/** What a room passes to a thread of it open on the page: its replies and its root as they change. */
type ThreadFeed = (event: 'message' | 'changed' | 'root', m: RoomMessage) => void;

export type StoredRoomDeps = {
  roomId: string;
  /** A page of history through the API (the app's request helper, with its token refresh). */
  fetchPage(q: { before?: number; after?: number; around?: number; thread?: number; limit: number }): Promise<MessagePage>;
  /** Something the user should hear about (a refused send, an edit that failed). */
  notify(n: { title: string; description: string }): void;
  /**
   * Group rooms: the room's hosted channel (Ably), which carries its live events instead of
   * socket.io when the server has a key. Resolves once it is following (or gave up waiting).
   */
  followHosted?(
    roomId: string,
    onEvent: (name: string, data: unknown) => void,
    onGap: () => void,
    onProblem: (problem: { message: string }) => void,
  ): Promise<() => void>;
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
  /**
   * A thread of a group room rather than the room: its root's id and the room's connection, whose
   * live events bring the thread's (one path for both, socket.io or the hosted channel).
   */
  thread?: { rootId: number; room: StoredRoomConnection };
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
  root: null,
  following: false,
  threadUnread: {},
  picturesAllowedBy: null,
  restrictionsChanged: 0,
});

let clientSeq = 0;
const newClientId = () => `${Date.now().toString(36)}-${(clientSeq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function createStoredRoom(deps: StoredRoomDeps): StoredRoomConnection {
  const { roomId } = deps;
  const rootId = deps.thread?.rootId;
  /** A room's threads open on the page, by root id. */
  const feeds = new Map<number, Set<ThreadFeed>>();
  const feed = (id: number, event: Parameters<ThreadFeed>[0], m: RoomMessage) => {
    for (const f of feeds.get(id) ?? []) f(event, m);
  };
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

  /**
   * A group room's ids of its threads' replies seen passing live, past `caught`: the room's
   * sequence holds them, so catching up passes over them (a thread's own page holds the replies).
   */
  const passed = new Set<number>();

  const set = (patch: Partial<StoredRoomState> | ((s: StoredRoomState) => Partial<StoredRoomState>)) => {
    state = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
    for (const l of listeners) l();
  };
  /**
   * After a page of old messages (a jump, or filling after one), against what was held `before`
   * it: messages are missing after its last one while the server has newer ones and the page does
   * not reach the messages held after it. A room with threads skips their replies' ids: a gap of
   * only those brings nothing new when filled, and ends then.
   */
  const gapAfterPage = (page: MessagePage, before: readonly RoomMessage[]) => {
    const first = page.messages[0];
    const last = page.messages.at(-1);
    if (!first || !last || !(page.hasNewer ?? page.hasMore)) return null;
    const after = nextHeld(before, first.id - 1);
    return after && after.id > last.id + 1 ? last.id : null;
  };
  const ours = (p: { roomId: string }) => p.roomId === roomId;

  function receive(messages: RoomMessage[]) {
    const clientIds = new Set(messages.map((m) => m.clientId).filter(Boolean));
    set((s) => ({
      messages: mergeMessages(s.messages, messages),
      pending: clientIds.size ? s.pending.filter((p) => !clientIds.has(p.clientId)) : s.pending,
    }));
    if (joined) advance();
  }
  /** A thread's ids are not consecutive (they share the room's sequence): it catches up from what its answers brought. */
  function advance() {
    if (rootId !== undefined) return;
    caught = caughtUpTo(state.messages, caught, passed);
    for (const id of passed) if (id <= caught) passed.delete(id);
  }
  /** What a join or a page brought: held without a gap up to its last id (or `after`, when it brought nothing). */
  function caughtUpThrough(last: number | undefined) {
    joined = true;
    caught = Math.max(caught, last ?? caught);
    advance();
  }

  async function join() {
    const run = ++joinRun;
    // Where to catch up from is decided before waiting for the hosted channel.
    const after = joined ? caught : undefined;
    if (deps.followHosted) {
      await hostedReady;
      if (run !== joinRun || closed) return;
    }
    if (rootId !== undefined) return joinThread(run, rootId, after);
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
      threadUnread: answer.threadUnread ?? {},
      picturesAllowedBy: answer.picturesAllowedBy ?? null,
      restrictionsChanged: after === undefined ? s.restrictionsChanged : s.restrictionsChanged + 1,
      // Threads that moved on while we were away: their roots' counts as they are now.
      messages: (answer.threads ?? []).reduce(replaceMessage, s.messages),
    }));
    for (const root of answer.threads ?? []) feed(root.id, 'root', root);
    await catchUp(run, answer.hasNewer);
  }

  /** A thread opens (or catches up from `after`): its root, replies and this user's place in it. */
  async function joinThread(run: number, id: number, after: number | undefined) {
    let raw: unknown;
    try {
      raw = await emitSocketWithAck(
        wire.thread,
        after === undefined ? { roomId, rootId: id } : { roomId, rootId: id, after },
        MESSAGING_REQUEST_TIMEOUT_MS,
      );
    } catch {
      return;
    }
    if (run !== joinRun || closed) return;
    const answer = checkPayload('rooms', threadAnswerCheck, wire.thread, raw);
    if (!answer) return;
    if (!answer.ok) return set({ phase: 'refused', refusal: { message: answer.message, code: answer.code } });
    receive(answer.messages);
    caughtUpThrough(answer.messages.at(-1)?.id ?? Math.max(caught, id));
    set((s) => ({
      phase: 'open',
      root: answer.root,
      following: answer.following,
      hasOlder: after === undefined ? answer.hasOlder : s.hasOlder,
      readAtOpen: s.readAtOpen ?? answer.lastReadId,
      refusal: null,
    }));
    await catchUp(run, answer.hasNewer);
  }

  async function catchUp(run: number, hasNewer: boolean) {
    // Away longer than a page: the rest comes page by page, live messages merging in meanwhile.
    let more = hasNewer;
    for (let i = 0; more && i < CATCH_UP_PAGES && run === joinRun; i++) {
      const page = await deps
        .fetchPage({ after: caught, limit: PAGE_MAX, ...(rootId !== undefined && { thread: rootId }) })
        .catch(() => null);
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
      if (typeof problem === 'string') deps.notify({ title: i18n._(msg`Message not sent`), description: problem });
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
          ...(p.media && (p.media.kind === 'sticker' ? { sticker: p.media.id } : { gif: p.media.id })),
          ...(rootId !== undefined && { threadId: rootId }),
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
      // Posting in a thread follows it (the server has it so).
      if (rootId !== undefined) set({ following: true });
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
    deps.notify({ title: i18n._(msg`Message not sent`), description: answer.message });
  }

  /** `failed`: the title of the toast when it does not go through. */
  async function act(event: string, payload: Record<string, unknown>, failed: MessageDescriptor) {
    try {
      const a = await emitSocketWithAck<{ ok: boolean; message?: string }>(event, { roomId, ...payload }, MESSAGING_REQUEST_TIMEOUT_MS);
      if (!a.ok) deps.notify({ title: i18n._(failed), description: a.message ?? i18n._(msg`Try again.`) });
      return a.ok;
    } catch {
      deps.notify({ title: i18n._(failed), description: i18n._(msg`You are offline. Try again once reconnected.`) });
      return false;
    }
  }

  const off: Array<() => void> = [];
  const connection = {
    getState: () => state,
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    /** Follows the room: joins now when connected and again after every reconnection. */
    start() {
      closed = false;
      if (deps.thread) {
        // A thread hears its replies through its room, and joins (catching up) on every connection as the room does.
        off.push(
          deps.thread.room.followThread(deps.thread.rootId, (event, m) => {
            if (event === 'message') receive([m]);
            else if (event === 'changed') set((s) => ({ messages: replaceMessage(s.messages, m) }));
            else set({ root: m });
          }),
          subscribeSocketStatus(() => {
            if (getSocketStatus() === 'connected' && state.phase !== 'removed') void join();
          }),
        );
        if (getSocketStatus() === 'connected') void join();
        return;
      }
      const handlers: Record<string, (raw: unknown) => void> = {
        [wire.message]: (raw) => {
          const m = checkPayload('rooms', roomMessageCheck, wire.message, raw);
          if (!m || !ours(m)) return;
          stopTyping(m.senderId);
          // A thread's reply is its thread's, shown where that thread is open.
          if (m.threadId !== undefined) {
            if (m.id > caught) passed.add(m.id);
            advance();
            return feed(m.threadId, 'message', m);
          }
          receive([m]);
        },
        [wire.changed]: (raw) => {
          const m = checkPayload('rooms', roomMessageCheck, wire.changed, raw);
          if (!m || !ours(m)) return;
          if (m.threadId !== undefined) return feed(m.threadId, 'changed', m);
          set((s) => ({ messages: replaceMessage(s.messages, m) }));
          feed(m.id, 'root', m);
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
        [wire.restrictions]: (raw) => {
          const r = checkPayload('rooms', restrictionsCheck, wire.restrictions, raw);
          if (r && ours(r)) set((s) => ({ restrictionsChanged: s.restrictionsChanged + 1 }));
        },
        [wire.picturesAllowed]: (raw) => {
          const p = checkPayload('rooms', picturesAllowedCheck, wire.picturesAllowed, raw);
          if (p && ours(p)) set({ picturesAllowedBy: p.allowedBy });
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
            // The real-time client's own words say why; the title says what it means here.
            (problem) =>
              deps.notify({
                title: i18n._(msg`New messages in this room are delayed`),
                description: `${problem.message}. ${i18n._(msg`Parley keeps trying; reload the page if it lasts.`)}`,
              }),
          )
          .catch(() => () => undefined);
        hostedReady = ready;
        off.push(() => void ready.then((stop) => stop()));
      }
      off.push(
        // Told to this user's pages only (never through the hosted channel): a reply in a thread they follow.
        onSocketEvent(wire.threadActivity, (raw: unknown) => {
          const n = checkPayload('rooms', threadNoticeCheck, wire.threadActivity, raw);
          if (!n || !ours(n) || feeds.has(n.rootId)) return;
          set((s) => ({ threadUnread: { ...s.threadUnread, [n.rootId]: (s.threadUnread[n.rootId] ?? 0) + 1 } }));
        }),
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
      // A thread closing leaves its room open on the page.
      if (rootId === undefined) emitSocket(wire.unwatch, { roomId });
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
    /** A sticker or a GIF, on its own. */
    sendMedia(media: MessageMedia) {
      const p: PendingMessage = { clientId: newClientId(), text: '', replyTo: null, status: 'sending', media };
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
    edit: (id: number, text: string) => act(wire.edit, { id, text }, msg`Could not edit the message`),
    remove: (id: number) => act(wire.delete, { id }, msg`Could not delete the message`),
    react: (id: number, emoji: string, on: boolean) => act(wire.react, { id, emoji, on }, msg`Could not react`),
    /** A 1:1 chat: this user allows pictures in it, or no longer (the chat's pages hear who allows them). */
    allowPictures: (on: boolean) => act(wire.pictures, { allow: on }, msg`Could not change whether pictures are allowed`),
    typing(on: boolean) {
      // Typing is said in the room; a thread's composer says nothing there.
      if (rootId === undefined) emitSocket(wire.typing, { roomId, typing: on });
    },
    /** Moves our read position on (only forward; the server keeps the highest). */
    markRead(id: number) {
      if (id <= readSent) return;
      readSent = id;
      if (rootId === undefined) return emitSocket(wire.read, { roomId, lastReadId: id });
      emitSocket(wire.threadRead, { roomId, rootId, lastReadId: id });
      deps.thread?.room.threadRead(rootId);
    },
    /** A thread: follow it (told of its replies) or stop; false when it could not. */
    async follow(on: boolean) {
      if (rootId === undefined) return false;
      const done = await act(wire.follow, { rootId, on }, on ? msg`Could not follow the thread` : msg`Could not stop following the thread`);
      if (done) set({ following: on });
      return done;
    },
    /** A room: a thread of it open on the page hears its replies and root through `f` until it stops. */
    followThread(id: number, f: ThreadFeed): () => void {
      let held = feeds.get(id);
      if (!held) feeds.set(id, (held = new Set()));
      held.add(f);
      return () => {
        held.delete(f);
        if (held.size === 0) feeds.delete(id);
      };
    },
    /** A room: a thread of it was read on this page (its unread count goes). */
    threadRead(id: number) {
      if (!state.threadUnread[id]) return;
      set((s) => {
        const threadUnread = { ...s.threadUnread };
        delete threadUnread[id];
        return { threadUnread };
      });
    },
    /** Brings the message `id` and those around it (a search's hit), unless it is held already; false when it could not. */
    async jumpTo(id: number): Promise<boolean> {
      if (state.messages.some((m) => m.id === id)) return true;
      try {
        const page = await deps.fetchPage({ around: id, limit: PAGE_AROUND });
        const before = state.messages;
        set((s) => {
          const older = page.messages[0] !== undefined && (s.messages[0] === undefined || page.messages[0].id < s.messages[0].id);
          return { messages: mergeMessages(s.messages, page.messages), hasOlder: older ? page.hasMore : s.hasOlder };
        });
        set({ gapAfter: gapAfterPage(page, before) });
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
        const before = state.messages;
        set((s) => ({ messages: mergeMessages(s.messages, page.messages), gapAfter: gapAfterPage(page, before) }));
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
        const page = await deps.fetchPage({ before: state.messages[0]?.id, limit: 50, ...(rootId !== undefined && { thread: rootId }) });
        set((s) => ({ messages: mergeMessages(s.messages, page.messages), hasOlder: page.hasMore }));
      } catch {
        deps.notify({ title: i18n._(msg`Could not load older messages`), description: i18n._(msg`Check your connection and try again.`) });
      } finally {
        set({ loadingOlder: false });
      }
    },
  };
  return connection;
}

export type StoredRoomConnection = {
  getState(): StoredRoomState;
  subscribe(l: () => void): () => void;
  start(): void;
  rejoin(): void;
  stop(): void;
  send(text: string, replyTo?: number | null): void;
  sendAttachment(kind: AttachmentKind, blob: Blob, text?: string, durationMs?: number): void;
  sendMedia(media: MessageMedia): void;
  retry(clientId: string): void;
  discard(clientId: string): void;
  edit(id: number, text: string): Promise<boolean>;
  remove(id: number): Promise<boolean>;
  react(id: number, emoji: string, on: boolean): Promise<boolean>;
  allowPictures(on: boolean): Promise<boolean>;
  typing(on: boolean): void;
  markRead(id: number): void;
  follow(on: boolean): Promise<boolean>;
  followThread(id: number, f: ThreadFeed): () => void;
  threadRead(id: number): void;
  jumpTo(id: number): Promise<boolean>;
  loadGap(): Promise<void>;
  loadOlder(): Promise<void>;
};

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

/** A thread of a group room open on the page (`rootId`), for as long as it is shown; none when `rootId` is null. */
export function useStoredThread(
  room: StoredRoomConnection | null,
  roomDeps: StoredRoomDeps | null,
  rootId: number | null,
): [StoredRoomState, StoredRoomConnection | null] {
  // A new thread only when the thread changes; the room's deps are read as they were then.
  const thread = useMemo(() => {
    if (!room || !roomDeps || rootId === null) return null;
    const { followHosted: _hosted, ...rest } = roomDeps;
    return createStoredRoom({ ...rest, thread: { rootId, room } });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [room, rootId]);
  useEffect(() => {
    if (!thread) return;
    thread.start();
    return () => thread.stop();
  }, [thread]);
  const state = useSyncExternalStore(
    (l) => thread?.subscribe(l) ?? (() => undefined),
    () => thread?.getState() ?? EMPTY,
    () => EMPTY,
  );
  return [state, thread];
}

/** Calls `onActivity` when any stored room of the user moves on (a direct message for an unread count). */
export function onRoomActivity(onActivity: (n: UnreadNotice) => void): () => void {
  return onSocketEvent(wire.activity, (raw: unknown) => {
    const n = checkPayload('rooms', activityCheck, wire.activity, raw);
    if (n) onActivity(n);
  });
}
