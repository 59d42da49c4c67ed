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
