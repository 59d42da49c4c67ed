import type { RoomMessage } from '@parley/contract/rooms';
import type { MessageLog, NewMessage } from './messageStore.ts';

/** What a reply shows of the message it answers (as the stored log does). */
const QUOTE_CHARS = 140;

/**
 * A room's held messages. They share the room's id string, keep no receipt (it is made again for
 * each copy: the same bytes under the same key), and a message with no mention or reaction shares
 * one empty list: a held message is about half the size of the message as it is sent.
 */
type Held = {
  roomId: string;
  messages: RoomMessage[];
  lastId: number;
  /** Each sender's client ids, for a resend: per sender, so a key is the client's own string. */
  byClient: Map<string, Map<string, number>>;
};

/** The empty list of every held message without mentions or reactions; replaced, never changed. */
const NONE: never[] = Object.freeze([]) as never[];

/**
 * A held message, built in one shape whether posted here or handed over: every copy of it then
 * has one hidden class (see `copy`), and the optional fields are added only when present.
 */
function heldMessage(
  roomId: string,
  m: Omit<RoomMessage, 'roomId' | 'receipt' | 'emoji' | 'gift' | 'attachment'> & Partial<Pick<RoomMessage, 'emoji' | 'gift' | 'attachment'>>,
): RoomMessage {
  const message: RoomMessage = {
    roomId,
    id: m.id,
    senderId: m.senderId,
    senderName: m.senderName,
    text: m.text,
    sentAt: m.sentAt,
    editedAt: m.editedAt,
    deleted: m.deleted,
    replyTo: m.replyTo,
    mentions: m.mentions.length > 0 ? m.mentions : NONE,
    reactions: m.reactions.length > 0 ? m.reactions : NONE,
    clientId: m.clientId,
    receipt: undefined,
  };
  if (m.emoji && m.emoji.length > 0) message.emoji = m.emoji;
  if (m.gift !== undefined) message.gift = m.gift;
  if (m.attachment) message.attachment = m.attachment;
  return message;
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
  /** Forgets a room (its stream ended). */
  drop(roomId: string): void;
  /** The room's latest id, 0 before its first message. */
  lastId(roomId: string): number;
  /**
   * The room's next ids come after `id` (a log taken over from a process that died: its pages saw
   * ids up to there). Only while the room holds no message here: ids within the log stay consecutive.
   */
  continueAfter(roomId: string, id: number): void;
  /** Every message held for the room, oldest first. */
  all(roomId: string): readonly RoomMessage[];
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
    if (!h) rooms.set(roomId, (h = { roomId, messages: [], lastId: 0, byClient: new Map() }));
    return h;
  };
  const clientIdsOf = (h: Held, senderId: string) => {
    let ids = h.byClient.get(senderId);
    if (!ids) h.byClient.set(senderId, (ids = new Map()));
    return ids;
  };
  const find = (roomId: string, id: number) => {
    const list = rooms.get(roomId)?.messages;
    if (!list || list.length === 0) return undefined;
    // Ids are consecutive within the buffer, so the place is arithmetic (a deleted message keeps its place).
    const m = list[id - list[0]!.id];
    return m?.id === id ? m : undefined;
  };
  const copy = (m: RoomMessage): RoomMessage => {
    const c: RoomMessage = { ...m, reactions: m.reactions.map((r) => ({ ...r, userIds: [...r.userIds] })) };
    // The held message has the slot (undefined): a property added to a spread copy would give it a
    // shape whose keys V8 lists again on every for-in, and socket.io's binary check is one per send.
    c.receipt = m.deleted ? undefined : opts.seal?.(m);
    return c;
  };
  const page = (list: RoomMessage[], limit: number, fromEnd: boolean) => {
    const hasMore = list.length > limit;
    return { messages: (fromEnd ? list.slice(-limit) : list.slice(0, limit)).map(copy), hasMore };
  };

  return {
    async insert(m: NewMessage) {
      const h = held(m.roomId);
      const clientIds = clientIdsOf(h, m.senderId);
      const seen = clientIds.get(m.clientId);
      if (seen !== undefined) {
        const again = find(m.roomId, seen);
        if (again) return copy(again);
      }
      const quoted = m.replyTo === undefined ? undefined : find(m.roomId, m.replyTo);
      const message = heldMessage(h.roomId, {
        id: ++h.lastId,
        senderId: m.senderId,
        senderName: m.senderName,
        text: m.text,
        sentAt: now(),
        editedAt: null,
        deleted: false,
        replyTo: quoted && !quoted.deleted ? { id: quoted.id, senderName: quoted.senderName, text: quoted.text.slice(0, QUOTE_CHARS) } : null,
        mentions: m.mentions,
        reactions: NONE,
        clientId: m.clientId,
        emoji: m.emoji,
        gift: m.gift,
        attachment: m.attachment,
      });
      h.messages.push(message);
      clientIds.set(m.clientId, message.id);
      while (h.messages.length > opts.capacity) {
        const gone = h.messages.shift()!;
        if (gone.clientId) h.byClient.get(gone.senderId)?.delete(gone.clientId);
      }
      return copy(message);
    },
    async one(roomId, id) {
      const m = find(roomId, id);
      return m ? copy(m) : null;
    },
    async before(roomId, before, limit) {
      const list = rooms.get(roomId)?.messages ?? [];
      return page(before === undefined ? list : list.filter((m) => m.id < before), limit, true);
    },
    async after(roomId, after, limit) {
      const list = rooms.get(roomId)?.messages ?? [];
      return page(
        list.filter((m) => m.id > after),
        limit,
        false,
      );
    },
    async byIds(roomId, ids) {
      return ids
        .map((id) => find(roomId, id))
        .filter((m): m is RoomMessage => m !== undefined)
        .sort((a, b) => a.id - b.id)
        .map(copy);
    },
    async author(roomId, id) {
      const m = find(roomId, id);
      return m ? { senderId: m.senderId, deleted: m.deleted } : null;
    },
    async edit(roomId, id, text, emoji) {
      const m = find(roomId, id);
      if (!m || m.deleted) return m ? copy(m) : null;
      m.text = text;
      m.editedAt = now();
      if (emoji && emoji.length > 0) m.emoji = emoji;
      else delete m.emoji;
      return copy(m);
    },
    async remove(roomId, id) {
      const m = find(roomId, id);
      if (!m) return null;
      if (!m.deleted) Object.assign(m, { text: '', deleted: true, reactions: NONE });
      delete m.emoji;
      delete m.attachment;
      return copy(m);
    },
    async react(roomId, id, userId, emoji, on) {
      const m = find(roomId, id);
      if (!m || m.deleted) return m ? copy(m) : null;
      const r = m.reactions.find((x) => x.emoji === emoji);
      if (on && !r) m.reactions = [...m.reactions, { emoji, userIds: [userId] }];
      else if (on && r && !r.userIds.includes(userId)) r.userIds.push(userId);
      else if (!on && r) {
        r.userIds = r.userIds.filter((u) => u !== userId);
        if (r.userIds.length === 0) m.reactions = m.reactions.filter((x) => x !== r);
      }
      return copy(m);
    },
    drop: (roomId) => void rooms.delete(roomId),
    lastId: (roomId) => rooms.get(roomId)?.lastId ?? 0,
    continueAfter(roomId, id) {
      const h = held(roomId);
      if (h.messages.length === 0) h.lastId = Math.max(h.lastId, id);
    },
    all: (roomId) => rooms.get(roomId)?.messages ?? [],
    restore(roomId, from) {
      const h: Held = { roomId, messages: [], lastId: 0, byClient: new Map() };
      for (const m of from.messages.slice(-opts.capacity)) {
        const reactions = m.reactions.length > 0 ? m.reactions.map((r) => ({ ...r, userIds: [...r.userIds] })) : NONE;
        h.messages.push(heldMessage(roomId, { ...m, mentions: [...m.mentions], reactions }));
        if (m.clientId) clientIdsOf(h, m.senderId).set(m.clientId, m.id);
      }
      h.lastId = Math.max(from.lastId, h.messages.at(-1)?.id ?? 0);
      rooms.set(roomId, h);
    },
    removeFrom(roomId, senderId) {
      const removed: RoomMessage[] = [];
      for (const m of rooms.get(roomId)?.messages ?? [])
        if (m.senderId === senderId && !m.deleted) {
          Object.assign(m, { text: '', deleted: true, reactions: NONE });
          delete m.emoji;
          delete m.attachment;
          removed.push(copy(m));
        }
      return removed;
    },
  };
}
