import type { RoomMessage } from '@parley/contract/rooms';
import type { MessageLog, NewMessage } from './messageStore.ts';

/** What a reply shows of the message it answers (as the stored log does). */
const QUOTE_CHARS = 140;

type Held = { messages: RoomMessage[]; lastId: number; byClient: Map<string, number> };

/**
 * The message log of rooms whose messages are held, not stored (a live stream's chat): the last
 * `capacity` messages of each room in memory, under ids that increase per room like the stored
 * log's, so that catching up after a drop, a resend and ordering work the same for every kind.
 */
export function memoryLog(opts: {
  capacity: number;
  now?: () => number;
  /** Signs a message as it is kept and each time its text changes (a 1:1 chat's receipt); removed from a deleted one. */
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
    if (!h) rooms.set(roomId, (h = { messages: [], lastId: 0, byClient: new Map() }));
    return h;
  };
  const find = (roomId: string, id: number) => {
    const list = rooms.get(roomId)?.messages;
    if (!list || list.length === 0) return undefined;
    // Ids are consecutive within the buffer, so the place is arithmetic (a deleted message keeps its place).
    const m = list[id - list[0]!.id];
    return m?.id === id ? m : undefined;
  };
  const sealed = (m: RoomMessage) => {
    const receipt = opts.seal?.(m);
    if (receipt !== undefined) m.receipt = receipt;
  };
  const copy = (m: RoomMessage): RoomMessage => ({ ...m, reactions: m.reactions.map((r) => ({ ...r, userIds: [...r.userIds] })) });
  const page = (list: RoomMessage[], limit: number, fromEnd: boolean) => {
    const hasMore = list.length > limit;
    return { messages: (fromEnd ? list.slice(-limit) : list.slice(0, limit)).map(copy), hasMore };
  };

  return {
    async insert(m: NewMessage) {
      const h = held(m.roomId);
      const key = `${m.senderId}:${m.clientId}`;
      const seen = h.byClient.get(key);
      if (seen !== undefined) {
        const again = find(m.roomId, seen);
        if (again) return copy(again);
      }
      const quoted = m.replyTo === undefined ? undefined : find(m.roomId, m.replyTo);
      const message: RoomMessage = {
        roomId: m.roomId,
        id: ++h.lastId,
        senderId: m.senderId,
        senderName: m.senderName,
        text: m.text,
        sentAt: now(),
        editedAt: null,
        deleted: false,
        replyTo: quoted && !quoted.deleted ? { id: quoted.id, senderName: quoted.senderName, text: quoted.text.slice(0, QUOTE_CHARS) } : null,
        mentions: m.mentions,
        reactions: [],
        clientId: m.clientId,
        ...(m.emoji && m.emoji.length > 0 && { emoji: m.emoji }),
        ...(m.gift !== undefined && { gift: m.gift }),
        ...(m.attachment && { attachment: m.attachment }),
      };
      sealed(message);
      h.messages.push(message);
      h.byClient.set(key, message.id);
      while (h.messages.length > opts.capacity) {
        const gone = h.messages.shift()!;
        if (gone.clientId) h.byClient.delete(`${gone.senderId}:${gone.clientId}`);
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
      sealed(m);
      return copy(m);
    },
    async remove(roomId, id) {
      const m = find(roomId, id);
      if (!m) return null;
      if (!m.deleted) Object.assign(m, { text: '', deleted: true, reactions: [] });
      delete m.emoji;
      delete m.receipt;
      delete m.attachment;
      return copy(m);
    },
    async react(roomId, id, userId, emoji, on) {
      const m = find(roomId, id);
      if (!m || m.deleted) return m ? copy(m) : null;
      const r = m.reactions.find((x) => x.emoji === emoji);
      if (on && !r) m.reactions.push({ emoji, userIds: [userId] });
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
      const messages = from.messages.slice(-opts.capacity).map(copy);
      const byClient = new Map<string, number>();
      for (const m of messages) if (m.clientId) byClient.set(`${m.senderId}:${m.clientId}`, m.id);
      const lastId = Math.max(from.lastId, messages.at(-1)?.id ?? 0);
      rooms.set(roomId, { messages, lastId, byClient });
    },
    removeFrom(roomId, senderId) {
      const removed: RoomMessage[] = [];
      for (const m of rooms.get(roomId)?.messages ?? [])
        if (m.senderId === senderId && !m.deleted) {
          Object.assign(m, { text: '', deleted: true, reactions: [] });
          delete m.emoji;
          delete m.receipt;
          delete m.attachment;
          removed.push(copy(m));
        }
      return removed;
    },
  };
}
