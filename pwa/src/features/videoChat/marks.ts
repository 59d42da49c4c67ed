/**
 * Performance marks of a video chat, read by bench/video.ts (and visible in DevTools):
 * the room setup arriving and the first remote frame painted for that room.
 */
export const MARK_ROOM_SETUP = 'parley:video:room-setup';
export const MARK_FIRST_REMOTE_FRAME = 'parley:video:first-remote-frame';

export function markRoomSetup(roomId: string) {
  performance.mark(MARK_ROOM_SETUP, { detail: { roomId } });
}

export function markFirstRemoteFrame(roomId: string) {
  performance.mark(MARK_FIRST_REMOTE_FRAME, { detail: { roomId } });
}
