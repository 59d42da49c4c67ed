import type { RoomMessage } from '@parley/contract/rooms';
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

/**
 * A stored room's messages as a page holds them: in id order, each id once. What arrives live,
 * from a catch-up or from a page of history goes through `mergeMessages`, so a message seen twice
 * (live and in the catch-up that crossed it) is shown once, and a changed one (edited, deleted,
 * reacted to) replaces its earlier self.
 */
export function mergeMessages(current: readonly RoomMessage[], incoming: readonly RoomMessage[]): RoomMessage[] {
  if (incoming.length === 0) return current as RoomMessage[];
  const last = current[current.length - 1];
  // The common case: one new message after the last.
  if (incoming.length === 1 && (!last || incoming[0]!.id > last.id)) return [...current, incoming[0]!];
  const byId = new Map<number, RoomMessage>();
  for (const m of current) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Replaces a message the page already holds (an edit, a deletion, a reaction); one it does not hold is ignored. */
export function replaceMessage(current: readonly RoomMessage[], changed: RoomMessage): RoomMessage[] {
  const i = current.findIndex((m) => m.id === changed.id);
  if (i < 0) return current as RoomMessage[];
  const next = current.slice();
  next[i] = changed;
  return next;
}

/**
 * Where a catch-up starts after a drop: `from`, the last id up to which the page is known to hold
 * everything, moved on through the ids that follow it without a gap. Not simply the highest id
 * held: the acknowledgement of a message of ours can arrive past one still on its way to us, and the
 * connection can drop with that one in flight. `elsewhere`: ids of the room's sequence held
 * elsewhere (its threads' replies, which a group room's page sees pass but does not show).
 */
export function caughtUpTo(messages: readonly RoomMessage[], from: number, elsewhere: ReadonlySet<number> = NONE): number {
  let end = from;
  let i = messages.findIndex((m) => m.id > end);
  for (;;) {
    if (i >= 0 && i < messages.length && messages[i]!.id === end + 1) end = messages[i++]!.id;
    else if (elsewhere.has(end + 1)) end++;
    else return end;
  }
}
const NONE: ReadonlySet<number> = new Set();

/** The first held message after `id`, if any: where a gap after `id` ends. */
export function nextHeld(messages: readonly RoomMessage[], id: number): RoomMessage | undefined {
  return messages.find((m) => m.id > id);
}

/** "Ana is typing", "Ana and Bo are typing", "Ana and 2 others are typing", in the interface language. */
export function typingLine(names: readonly string[], i18n: I18n): string | null {
  if (names.length === 0) return null;
  const [first = '', second = ''] = names;
  if (names.length === 1) return i18n._(msg`${first} is typing…`);
  if (names.length === 2) return i18n._(msg`${first} and ${second} are typing…`);
  const others = names.length - 1;
  return i18n._(msg`${first} and ${plural(others, { one: '# other is', other: '# others are' })} typing…`);
}
