import type { RoomMessage } from '@parley/contract/rooms';
import type { MessageLog, NewMessage } from './messageStore.ts';
import { PackedMessages } from './packedMessages.ts';

/** What a reply shows of the message it answers (as the stored log does). */
const QUOTE_CHARS = 140;

/**
 * The rarer fields of a held message (an edit, a deletion, a reply, mentions, reactions, emoji, a
 * gift, a picture): kept by id beside the packed messages, only for a message that has one.
 */
type More = {
  editedAt: number | null;
  deleted: boolean;
  replyTo: RoomMessage['replyTo'];
  mentions: string[];
  reactions: RoomMessage['reactions'];
  emoji?: string[] | undefined;
  gift?: number | undefined;
  attachment?: RoomMessage['attachment'];
};

type Held = {
  roomId: string;
  messages: PackedMessages;
  /** By message id, for the messages that have any of `More`'s fields. */
  more: Map<number, More> | undefined;
  lastId: number;
};

/** The empty list of every message without mentions or reactions; replaced, never changed. */
const NONE: never[] = Object.freeze([]) as never[];

/** `more` for a message that has any of its fields, else undefined (most messages: nothing is made for them). */
function moreOf(m: Partial<More>): More | undefined {
  const mentions = m.mentions && m.mentions.length > 0 ? m.mentions : NONE;
  const reactions = m.reactions && m.reactions.length > 0 ? m.reactions : NONE;
  const emoji = m.emoji && m.emoji.length > 0 ? m.emoji : undefined;
  const plain =
    (m.editedAt ?? null) === null &&
    !m.deleted &&
    (m.replyTo ?? null) === null &&
    mentions === NONE &&
    reactions === NONE &&
    emoji === undefined &&
    m.gift === undefined &&
    m.attachment === undefined;
  if (plain) return undefined;
  return {
    editedAt: m.editedAt ?? null,
    deleted: m.deleted ?? false,
    replyTo: m.replyTo ?? null,
    mentions,
    reactions,
    emoji,
    gift: m.gift,
    attachment: m.attachment,
  };
}

/** Reactions copied, so that a later reaction changes neither a sent copy nor what was handed over. */
const copyReactions = (reactions: RoomMessage['reactions']) => reactions.map((r) => ({ ...r, userIds: [...r.userIds] }));

const emptyHeld = (roomId: string): Held => ({ roomId, messages: new PackedMessages(), more: undefined, lastId: 0 });

/**
 * A message as it is sent: one shape for every copy (the same keys in the same order, the optional
 * ones added only when present), reactions copied so a later reaction never changes a sent copy.
 */
function wire(
  roomId: string,
  fields: { id: number; senderId: string; senderName: string; text: string; sentAt: number; clientId: string | null },
  more: More | undefined,
): RoomMessage {
  const message: RoomMessage = {
    roomId,
    id: fields.id,
    senderId: fields.senderId,
    senderName: fields.senderName,
    text: fields.text,
    sentAt: fields.sentAt,
    editedAt: more ? more.editedAt : null,
    deleted: more ? more.deleted : false,
    replyTo: more ? more.replyTo : null,
    mentions: more ? more.mentions : NONE,
    reactions: more && more.reactions.length > 0 ? copyReactions(more.reactions) : [],
    clientId: fields.clientId,
    // The slot is always there: a property added later would give the copy a shape whose keys V8
    // lists again on every for-in, and socket.io's binary check is one per send.
    receipt: undefined,
  };
  if (more?.emoji) message.emoji = more.emoji;
  if (more?.gift !== undefined) message.gift = more.gift;
  if (more?.attachment) message.attachment = more.attachment;
  return message;
}

/** The held message at index `i`, read back from its packed form. */
function unpack(h: Held, i: number): RoomMessage {
  const p = h.messages;
  const id = p.id(i);
  return wire(
    h.roomId,
    { id, senderId: p.senderId(i), senderName: p.senderName(i), text: p.text(i), sentAt: p.time(i), clientId: p.clientId(i) },
    h.more?.get(id),
  );
}

/** Makes the message's `more` (a plain message has none until it is edited, deleted or reacted to). */
function moreFor(h: Held, id: number): More {
  const all = (h.more ??= new Map());
  let more = all.get(id);
  if (!more) all.set(id, (more = { editedAt: null, deleted: false, replyTo: null, mentions: NONE, reactions: NONE }));
  return more;
}

const deleted = (h: Held, id: number) => h.more?.get(id)?.deleted ?? false;

/** A deleted message keeps its place: its text, reactions, emoji and picture go. */
function erase(h: Held, i: number) {
  const more = moreFor(h, h.messages.id(i));
  h.messages.setText(i, '');
  more.deleted = true;
  more.reactions = NONE;
  more.emoji = undefined;
  more.attachment = undefined;
}

/**
 * The message log of rooms whose messages are held, not stored (a 1:1 chat, a live stream's chat): the last
 * `capacity` messages of each room in memory, under ids that increase per room like the stored
 * log's, so that catching up after a drop, a resend and ordering work the same for every kind.
 */
export function memoryLog(opts: {
  capacity: number;
  now?: () => number;
  /** Signs each copy of a message as it now reads (a 1:1 chat's receipt); a deleted one has none. */
  seal?(m: RoomMessage): string | undefined;
}): MessageLog & {
  /** insert() without a promise: the message is kept (or found again, a resend) at once. */
  insertNow(m: NewMessage): RoomMessage;
  /** Forgets a room (its stream ended). */
  drop(roomId: string): void;
  /** The room's latest id, 0 before its first message. */
  lastId(roomId: string): number;
  /**
   * The room's next ids come after `id` (a log taken over from a process that died: its pages saw
   * ids up to there). Only while the room holds no message here: ids within the log stay consecutive.
   */
  continueAfter(roomId: string, id: number): void;
  /** Every message held for the room, oldest first, as fresh copies without receipts (a hand-over sends them). */
  all(roomId: string): RoomMessage[];
  /**
   * The room's log as another process held it (handed over as it drained): the same messages under
   * the same ids, so pages catch up by their last id and a resend is still known by its client id.
   */
  restore(roomId: string, held: { lastId: number; messages: RoomMessage[] }): void;
  /** Removes, as a ban does, everything this sender wrote; answers the removed messages as they now read. */
  removeFrom(roomId: string, senderId: string): RoomMessage[];
} {
  const rooms = new Map<string, Held>();
  const now = opts.now ?? Date.now;
  const held = (roomId: string) => {
    let h = rooms.get(roomId);
    if (!h) rooms.set(roomId, (h = emptyHeld(roomId)));
    return h;
  };
  const indexOf = (roomId: string, id: number) => {
    const h = rooms.get(roomId);
    return h ? { h, i: h.messages.indexOf(id) } : { h, i: -1 };
  };
  const seal = (m: RoomMessage) => {
    if (!m.deleted && opts.seal) m.receipt = opts.seal(m);
    return m;
  };
  /** Copies of the held messages that pass `keep`, oldest first: the first `limit` of them, or the last. */
  const page = (roomId: string, keep: (id: number) => boolean, limit: number, fromEnd: boolean) => {
    const h = rooms.get(roomId);
    const found: number[] = [];
    if (h) for (let i = h.messages.firstIndex(); i < h.messages.endIndex(); i++) if (keep(h.messages.id(i))) found.push(i);
    const chosen = fromEnd ? found.slice(-limit) : found.slice(0, limit);
    return { messages: h ? chosen.map((i) => seal(unpack(h, i))) : [], hasMore: found.length > limit };
  };
  /** Forgets what is held beyond the capacity, with the extra fields of what went. */
  const trim = (h: Held) => {
    const p = h.messages;
    if (p.size <= opts.capacity) return;
    p.trimTo(opts.capacity);
    const oldest = p.id(p.firstIndex());
    if (h.more) for (const id of h.more.keys()) if (id < oldest) h.more.delete(id);
  };

  const insertNow = (m: NewMessage): RoomMessage => {
    const h = held(m.roomId);
    const p = h.messages;
    // A resend whose acknowledgement was lost: the message it already is, not a second one.
    const again = p.resent(m.senderId, m.clientId);
    if (again >= 0) return seal(unpack(h, again));
    const quoted = m.replyTo === undefined ? -1 : p.indexOf(m.replyTo);
    const id = ++h.lastId;
    const sentAt = now();
    const more = moreOf({
      replyTo:
        quoted >= 0 && !deleted(h, p.id(quoted))
          ? { id: p.id(quoted), senderName: p.senderName(quoted), text: p.text(quoted).slice(0, QUOTE_CHARS) }
          : null,
      mentions: m.mentions,
      emoji: m.emoji,
      gift: m.gift,
      attachment: m.attachment,
    });
    p.push(id, m.senderId, m.senderName, m.text, sentAt, m.clientId);
    if (more) (h.more ??= new Map()).set(id, more);
    trim(h);
    // Sent as it came: only a message read back later is made again from its packed form.
    return seal(wire(h.roomId, { id, senderId: m.senderId, senderName: m.senderName, text: m.text, sentAt, clientId: m.clientId }, more));
  };

  return {
    insertNow,
    insert: async (m: NewMessage) => insertNow(m),
    async one(roomId, id) {
      const { h, i } = indexOf(roomId, id);
      return h && i >= 0 ? seal(unpack(h, i)) : null;
    },
    async before(roomId, before, limit) {
      return page(roomId, (id) => before === undefined || id < before, limit, true);
    },
    async after(roomId, after, limit) {
      return page(roomId, (id) => id > after, limit, false);
    },
    async byIds(roomId, ids) {
      const wanted = new Set(ids);
      return page(roomId, (id) => wanted.has(id), Number.MAX_SAFE_INTEGER, false).messages;
    },
    async author(roomId, id) {
      const { h, i } = indexOf(roomId, id);
      return h && i >= 0 ? { senderId: h.messages.senderId(i), deleted: deleted(h, id) } : null;
    },
    async edit(roomId, id, text, emoji) {
      const { h, i } = indexOf(roomId, id);
      if (!h || i < 0) return null;
      if (!deleted(h, id)) {
        const more = moreFor(h, id);
        h.messages.setText(i, text);
        more.editedAt = now();
        more.emoji = emoji && emoji.length > 0 ? emoji : undefined;
      }
      return seal(unpack(h, i));
    },
    async remove(roomId, id) {
      const { h, i } = indexOf(roomId, id);
      if (!h || i < 0) return null;
      erase(h, i);
      return seal(unpack(h, i));
    },
    async react(roomId, id, userId, emoji, on) {
      const { h, i } = indexOf(roomId, id);
      if (!h || i < 0) return null;
      if (!deleted(h, id)) {
        const more = moreFor(h, id);
        const r = more.reactions.find((x) => x.emoji === emoji);
        if (on && !r) more.reactions = [...more.reactions, { emoji, userIds: [userId] }];
        else if (on && r && !r.userIds.includes(userId)) r.userIds.push(userId);
        else if (!on && r) {
          r.userIds = r.userIds.filter((u) => u !== userId);
          if (r.userIds.length === 0) more.reactions = more.reactions.filter((x) => x !== r);
        }
      }
      return seal(unpack(h, i));
    },
    drop: (roomId) => void rooms.delete(roomId),
    lastId: (roomId) => rooms.get(roomId)?.lastId ?? 0,
    continueAfter(roomId, id) {
      const h = held(roomId);
      if (h.messages.size === 0) h.lastId = Math.max(h.lastId, id);
    },
    all(roomId) {
      const h = rooms.get(roomId);
      const all: RoomMessage[] = [];
      if (h) for (let i = h.messages.firstIndex(); i < h.messages.endIndex(); i++) all.push(unpack(h, i));
      return all;
    },
    restore(roomId, from) {
      const h = emptyHeld(roomId);
      for (const m of from.messages.slice(-opts.capacity)) {
        const reactions = m.reactions.length > 0 ? copyReactions(m.reactions) : NONE;
        h.messages.push(m.id, m.senderId, m.senderName, m.text, m.sentAt, m.clientId);
        const more = moreOf({ ...m, mentions: [...m.mentions], reactions });
        if (more) (h.more ??= new Map()).set(m.id, more);
        h.lastId = m.id;
      }
      h.lastId = Math.max(from.lastId, h.lastId);
      rooms.set(roomId, h);
    },
    removeFrom(roomId, senderId) {
      const h = rooms.get(roomId);
      const removed: RoomMessage[] = [];
      if (h)
        for (let i = h.messages.firstIndex(); i < h.messages.endIndex(); i++)
          if (h.messages.senderId(i) === senderId && !deleted(h, h.messages.id(i))) {
            erase(h, i);
            removed.push(seal(unpack(h, i)));
          }
      return removed;
    },
  };
}
