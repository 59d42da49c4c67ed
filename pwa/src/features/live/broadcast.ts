import type { LocalMedia } from '../../lib/media/localMedia';
import { publish, thumbnailOf } from './liveMedia';

/** How often the list's picture of a stream is refreshed, and the first one after going live. */
const THUMBNAIL_EVERY_MS = 30_000;
const FIRST_THUMBNAIL_MS = 2_000;

export type Broadcast = {
  roomId: string;
  media: LocalMedia;
  pc: RTCPeerConnection;
  stop(): void;
};

let current: Broadcast | null = null;

/**
 * The one broadcast of this tab. It outlives the page change from the set-up (the list) to the
 * stream's page, so the camera opened for the preview is the one that goes live.
 */
export async function startBroadcast(roomId: string, media: LocalMedia, sendThumbnail: (image: string) => void): Promise<Broadcast> {
  current?.stop();
  const pc = await publish(roomId, media.outgoing);
  // A device switch or a filter change replaces a track: the server keeps receiving on the same sender.
  const offTrack = media.onTrackChange((kind, track) => {
    const sender = pc.getSenders().find((s) => s.track?.kind === kind);
    void sender?.replaceTrack(track);
  });
  const snap = () => void thumbnailOf(media.outgoing).then((image) => image && sendThumbnail(image));
  const first = setTimeout(snap, FIRST_THUMBNAIL_MS);
  const every = setInterval(snap, THUMBNAIL_EVERY_MS);
  const b: Broadcast = {
    roomId,
    media,
    pc,
    stop() {
      clearTimeout(first);
      clearInterval(every);
      offTrack();
      pc.close();
      media.close();
      if (current === b) current = null;
    },
  };
  current = b;
  return b;
}

export const currentBroadcast = (roomId: string): Broadcast | null => (current?.roomId === roomId ? current : null);
