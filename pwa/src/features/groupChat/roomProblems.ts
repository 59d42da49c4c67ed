/** The heading of a room that cannot be opened, by the server's refusal code. */
const TITLES: Record<string, string> = {
  unknown_room: 'Room not found',
  validation_failed: 'Room not found',
  not_found: 'Room not found',
  banned: 'You are banned from this room',
  closed: 'This room is closed',
  invite_only: 'This room is invite-only',
  kicked: 'You were removed from this room',
  left: 'You left this room',
};
export const problemTitle = (code: string | undefined) => TITLES[code ?? ''] ?? 'This room cannot be opened';
