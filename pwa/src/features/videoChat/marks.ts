/**
 * Performance marks of a video chat, read by bench/video.ts, bench/safety.ts and the e2e specs
 * (and visible in DevTools): the room setup arriving, the first remote frame painted for that
 * room, and the nudity guard blurring the partner's video.
 */
export const MARK_ROOM_SETUP = 'parley:video:room-setup';
export const MARK_FIRST_REMOTE_FRAME = 'parley:video:first-remote-frame';
export const MARK_NUDITY_BLURRED = 'parley:video:nudity-blurred';

export function markRoomSetup(roomId: string) {
  performance.mark(MARK_ROOM_SETUP, { detail: { roomId } });
}

export function markFirstRemoteFrame(roomId: string) {
  performance.mark(MARK_FIRST_REMOTE_FRAME, { detail: { roomId } });
}

export function markNudityBlurred(roomId: string) {
  performance.mark(MARK_NUDITY_BLURRED, { detail: { roomId } });
}
