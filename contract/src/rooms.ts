/**
 * Every conversation is a room of one kind with a list of members. `textChat` and `videoChat` are
 * rooms of two strangers the matchmaker opens; `group`, `live` and `direct` rooms follow.
 */
export const ROOM_KINDS = ['textChat', 'videoChat', 'group', 'live', 'direct'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];
