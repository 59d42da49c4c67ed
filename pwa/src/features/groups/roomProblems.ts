import type { RemovedFromRoom } from '@parley/contract/rooms';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const notFound = msg`Room not found`;
/** The heading of a room that cannot be opened, by the server's refusal code. */
const TITLES: Record<string, MessageDescriptor> = {
  unknown_room: notFound,
  validation_failed: notFound,
  not_found: notFound,
  banned: msg`You are banned from this room`,
  closed: msg`This room is closed`,
  invite_only: msg`This room is invite-only`,
  kicked: msg`You were removed from this room`,
  left: msg`You left this room`,
};
/** In the interface language. */
export const problemTitle = (code: string | undefined) => i18n._(TITLES[code ?? ''] ?? msg`This room cannot be opened`);

/** The server's refusals of a room (contract GROUP_REFUSALS) by code, in the interface language. */
const REFUSALS: Record<string, MessageDescriptor> = {
  unknown_room: msg`This room does not exist.`,
  not_found: msg`This room does not exist.`,
  closed: msg`This room is closed.`,
  banned: msg`You are banned from this room.`,
  invite_only: msg`This room is invite-only. Ask a member for the invite link.`,
  full: msg`This room is full.`,
  not_member: msg`Join the room to read and write in it.`,
};

/** Why a room refused, in the interface language when the code is known, else as the server said it. */
export const refusalMessage = (code: string | undefined, serverMessage: string) => {
  const known = REFUSALS[code ?? ''];
  return known ? i18n._(known) : serverMessage;
};

/**
 * Why this person is out of the room, in the interface language: who did it and the reason they
 * gave (their words, as written). The server's note says the same in English, and stands for what
 * this page does not know.
 */
export function removedMessage(removed: RemovedFromRoom): string {
  const by = removed.by;
  if (!by) return removed.note;
  const reasonAfter = (english: string) =>
    removed.note.startsWith(`${english}: `) ? removed.note.slice(english.length + 2) : removed.note === `${english}.` ? '' : null;
  if (removed.reason === 'closed' && removed.note === `${by} closed this room.`) return i18n._(msg`${by} closed this room.`);
  const said = removed.reason === 'banned' ? `${by} banned you from this room` : `${by} removed you from this room`;
  const reason = removed.reason === 'banned' || removed.reason === 'kicked' ? reasonAfter(said) : null;
  if (reason === null) return removed.note;
  if (removed.reason === 'banned')
    return reason ? i18n._(msg`${by} banned you from this room: ${reason}`) : i18n._(msg`${by} banned you from this room.`);
  return reason ? i18n._(msg`${by} removed you from this room: ${reason}`) : i18n._(msg`${by} removed you from this room.`);
}
