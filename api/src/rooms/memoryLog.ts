import type { RoomMessage } from '@parley/contract/rooms';
import type { MessageLog, NewMessage } from './messageStore.ts';

/** What a reply shows of the message it answers (as the stored log does). */
const QUOTE_CHARS = 140;

/**
 * What a room holds of a message: the fields every message has, and the rarer ones (an edit, a
 * deletion, a reply, mentions, reactions, emoji, a gift, a picture) in `more` only when it has one.
 * Every message sent is a fresh copy in the wire shape (see `wire`), so the held form can be this
 * small: a 1:1 chat keeps all its messages for as long as it lasts, on every process, for every pair.
 */
class HeldMessage {
  constructor(
    readonly id: number,
    readonly senderId: string,
    readonly senderName: string,
    public text: string,
    readonly sentAt: number,
    readonly clientId: string | null,
    public more: More | undefined,
  ) {}
}

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
  messages: HeldMessage[];
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

/**
 * A message as it is sent: one shape for every copy (the same keys in the same order, the optional
 * ones added only when present), reactions copied so a later reaction never changes a sent copy.
 */
function wire(roomId: string, h: HeldMessage, receipt: string | undefined): RoomMessage {
  const more = h.more;
  const message: RoomMessage = {
    roomId,
    id: h.id,
    senderId: h.senderId,
    senderName: h.senderName,
    text: h.text,
    sentAt: h.sentAt,
    editedAt: more ? more.editedAt : null,
    deleted: more ? more.deleted : false,
    replyTo: more ? more.replyTo : null,
    mentions: more ? more.mentions : NONE,
    reactions: more && more.reactions.length > 0 ? more.reactions.map((r) => ({ ...r, userIds: [...r.userIds] })) : [],
    clientId: h.clientId,
    // The slot is always there: a property added later would give the copy a shape whose keys V8
    // lists again on every for-in, and socket.io's binary check is one per send.
    receipt,
  };
  if (more?.emoji) message.emoji = more.emoji;
  if (more?.gift !== undefined) message.gift = more.gift;
  if (more?.attachment) message.attachment = more.attachment;
  return message;
}

/** Makes the message's `more` (a plain message has none until it is edited, deleted or reacted to). */
function moreFor(h: HeldMessage): More {
  return (h.more ??= { editedAt: null, deleted: false, replyTo: null, mentions: NONE, reactions: NONE });
}

/** A deleted message keeps its place: its text, reactions, emoji and picture go. */
function erase(h: HeldMessage) {
  const more = moreFor(h);
  h.text = '';
  more.deleted = true;
  more.reactions = NONE;
  more.emoji = undefined;
  more.attachment = undefined;
}

/**
 * The message log of rooms whose messages are held, not stored (a live stream's chat): the last
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
    if (!h) rooms.set(roomId, (h = { roomId, messages: [], lastId: 0 }));
    return h;
  };
  const find = (roomId: string, id: number) => {
    const list = rooms.get(roomId)?.messages;
    if (!list || list.length === 0) return undefined;
    // Ids are consecutive within the buffer, so the place is arithmetic (a deleted message keeps its place).
    const m = list[id - list[0]!.id];
    return m?.id === id ? m : undefined;
  };
  /**
   * The message this sender already posted under this client id (a resend whose acknowledgement
   * was lost), newest first: resends come soon after, and the buffer is bounded, so a scan is cheap
   * and each message carries no index entry for the rare resend.
   */
  const resent = (h: Held, senderId: string, clientId: string) => {
    const list = h.messages;
    for (let i = list.length - 1; i >= 0; i--) {
      const m = list[i]!;
      if (m.clientId === clientId && m.senderId === senderId) return m;
    }
    return undefined;
  };
  const copy = (roomId: string, m: HeldMessage): RoomMessage => {
    const c = wire(roomId, m, undefined);
    if (!m.more?.deleted && opts.seal) c.receipt = opts.seal(c);
    return c;
  };
  const page = (roomId: string, list: HeldMessage[], limit: number, fromEnd: boolean) => {
    const hasMore = list.length > limit;
    return { messages: (fromEnd ? list.slice(-limit) : list.slice(0, limit)).map((m) => copy(roomId, m)), hasMore };
  };

  const insertNow = (m: NewMessage): RoomMessage => {
    const h = held(m.roomId);
    const again = resent(h, m.senderId, m.clientId);
    if (again) return copy(h.roomId, again);
    const quoted = m.replyTo === undefined ? undefined : find(m.roomId, m.replyTo);
    const message = new HeldMessage(
      ++h.lastId,
      m.senderId,
      m.senderName,
      m.text,
      now(),
      m.clientId,
      moreOf({
        replyTo:
          quoted && !quoted.more?.deleted
            ? { id: quoted.id, senderName: quoted.senderName, text: quoted.text.slice(0, QUOTE_CHARS) }
            : null,
        mentions: m.mentions,
        emoji: m.emoji,
        gift: m.gift,
        attachment: m.attachment,
      }),
    );
    h.messages.push(message);
    if (h.messages.length > opts.capacity) h.messages.splice(0, h.messages.length - opts.capacity);
    return copy(h.roomId, message);
  };

  return {
    insertNow,
    insert: async (m: NewMessage) => insertNow(m),
    async one(roomId, id) {
      const m = find(roomId, id);
      return m ? copy(roomId, m) : null;
    },
    async before(roomId, before, limit) {
      const list = rooms.get(roomId)?.messages ?? [];
      return page(roomId, before === undefined ? list : list.filter((m) => m.id < before), limit, true);
    },
    async after(roomId, after, limit) {
      const list = rooms.get(roomId)?.messages ?? [];
      return page(
        roomId,
        list.filter((m) => m.id > after),
        limit,
        false,
      );
    },
    async byIds(roomId, ids) {
      return ids
        .map((id) => find(roomId, id))
        .filter((m): m is HeldMessage => m !== undefined)
        .sort((a, b) => a.id - b.id)
        .map((m) => copy(roomId, m));
    },
    async author(roomId, id) {
      const m = find(roomId, id);
      return m ? { senderId: m.senderId, deleted: m.more?.deleted ?? false } : null;
    },
    async edit(roomId, id, text, emoji) {
      const m = find(roomId, id);
      if (!m || m.more?.deleted) return m ? copy(roomId, m) : null;
      const more = moreFor(m);
      m.text = text;
      more.editedAt = now();
      more.emoji = emoji && emoji.length > 0 ? emoji : undefined;
      return copy(roomId, m);
    },
    async remove(roomId, id) {
      const m = find(roomId, id);
      if (!m) return null;
      erase(m);
      return copy(roomId, m);
    },
    async react(roomId, id, userId, emoji, on) {
      const m = find(roomId, id);
      if (!m || m.more?.deleted) return m ? copy(roomId, m) : null;
      const more = moreFor(m);
      const r = more.reactions.find((x) => x.emoji === emoji);
      if (on && !r) more.reactions = [...more.reactions, { emoji, userIds: [userId] }];
      else if (on && r && !r.userIds.includes(userId)) r.userIds.push(userId);
      else if (!on && r) {
        r.userIds = r.userIds.filter((u) => u !== userId);
        if (r.userIds.length === 0) more.reactions = more.reactions.filter((x) => x !== r);
      }
      return copy(roomId, m);
    },
    drop: (roomId) => void rooms.delete(roomId),
    lastId: (roomId) => rooms.get(roomId)?.lastId ?? 0,
    continueAfter(roomId, id) {
      const h = held(roomId);
      if (h.messages.length === 0) h.lastId = Math.max(h.lastId, id);
    },
    all: (roomId) => (rooms.get(roomId)?.messages ?? []).map((m) => wire(roomId, m, undefined)),
    restore(roomId, from) {
      const h: Held = { roomId, messages: [], lastId: 0 };
      for (const m of from.messages.slice(-opts.capacity)) {
        const reactions = m.reactions.length > 0 ? m.reactions.map((r) => ({ ...r, userIds: [...r.userIds] })) : NONE;
        h.messages.push(
          new HeldMessage(
            m.id,
            m.senderId,
            m.senderName,
            m.text,
            m.sentAt,
            m.clientId,
            moreOf({ ...m, mentions: [...m.mentions], reactions }),
          ),
        );
      }
      h.lastId = Math.max(from.lastId, h.messages.at(-1)?.id ?? 0);
      rooms.set(roomId, h);
    },
    removeFrom(roomId, senderId) {
      const removed: RoomMessage[] = [];
      for (const m of rooms.get(roomId)?.messages ?? [])
        if (m.senderId === senderId && !m.more?.deleted) {
          erase(m);
          removed.push(copy(roomId, m));
        }
      return removed;
    },
  };
}
