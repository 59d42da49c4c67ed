import {
  liveEvents,
  type LiveAck,
  type LivePublishAnswer,
  type LiveSdp,
  type LiveWatchAnswer,
  LIVE_THUMBNAIL_MAX_CHARS,
} from '@parley/contract/live';
import { emitSocketWithAck } from '../../realtime/socket';
import { jpegOfStream } from '../../lib/media/snapshot';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const SIGNAL_TIMEOUT_MS = 10_000;
/** The SFU finds the browser from its checks; the browser's own candidates only shorten that. */
const GATHER_WAIT_MS = 1_000;

export class LiveRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Waits until the browser gathered its candidates (or a second), so one offer carries them. */
function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    };
    const check = () => pc.iceGatheringState === 'complete' && done();
    pc.addEventListener('icegatheringstatechange', check);
    setTimeout(done, GATHER_WAIT_MS);
  });
}

const local = (pc: RTCPeerConnection): LiveSdp => ({
  type: pc.localDescription!.type as 'offer' | 'answer',
  sdp: pc.localDescription!.sdp,
});

/**
 * The camera goes out in three simulcast layers (full, half and quarter size): the server gives
 * each viewer the best one their connection takes. The browser drops layers a small camera or a
 * slow upload cannot carry; the server follows what arrives.
 */
const SIMULCAST: RTCRtpEncodingParameters[] = [
  { rid: 'h', maxBitrate: 900_000 },
  { rid: 'm', maxBitrate: 350_000, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 120_000, scaleResolutionDownBy: 4 },
];

/** Sends the broadcaster's camera and microphone to the server; the returned connection is theirs to close. */
export async function publish(roomId: string, stream: MediaStream): Promise<RTCPeerConnection> {
  const pc = new RTCPeerConnection();
  for (const track of stream.getTracks())
    pc.addTransceiver(track, { direction: 'sendonly', streams: [stream], ...(track.kind === 'video' ? { sendEncodings: SIMULCAST } : {}) });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const answer = await emitSocketWithAck<LivePublishAnswer>(liveEvents.publish, { roomId, offer: local(pc) }, SIGNAL_TIMEOUT_MS);
  if (!answer.ok) {
    pc.close();
    throw new LiveRefusal(answer.message, answer.code);
  }
  await pc.setRemoteDescription(answer.answer);
  return pc;
}

/** Watching a stream: its video and audio (`pc`, `stream`), or its chat alone (both null). */
export type Watching = { pc: RTCPeerConnection | null; stream: MediaStream | null; joined: Extract<LiveWatchAnswer, { ok: true }> };

/**
 * Starts watching: the server offers the stream's video and audio, the browser answers. With
 * `media: false` only the chat (video off, to save data): counted as a viewer, no connection.
 */
export async function watch(roomId: string, media = true): Promise<Watching> {
  if (!media) {
    const joined = await emitSocketWithAck<LiveWatchAnswer>(liveEvents.watch, { roomId, media: false }, SIGNAL_TIMEOUT_MS);
    if (!joined.ok) throw new LiveRefusal(joined.message, joined.code);
    return { pc: null, stream: null, joined };
  }
  // Marks for the late-join measure (bench and e2e read them): asked → connected → first frame.
  performance.mark('live:watch');
  const joined = await emitSocketWithAck<LiveWatchAnswer>(liveEvents.watch, { roomId }, SIGNAL_TIMEOUT_MS);
  if (!joined.ok) throw new LiveRefusal(joined.message, joined.code);
  if (!joined.offer) throw new LiveRefusal(i18n._(msg`The stream sent no video. Reload to try again.`), 'no_offer');
  const offer = joined.offer;
  const pc = new RTCPeerConnection();
  const stream = new MediaStream();
  pc.addEventListener('track', (e) => stream.addTrack(e.track));
  await pc.setRemoteDescription(offer);
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  const ack = await emitSocketWithAck<LiveAck>(liveEvents.answer, { roomId, answer: local(pc) }, SIGNAL_TIMEOUT_MS);
  if (!ack.ok) {
    pc.close();
    throw new LiveRefusal(ack.message, ack.code);
  }
  pc.addEventListener('connectionstatechange', () => pc.connectionState === 'connected' && performance.mark('live:connected'));
  return { pc, stream, joined };
}

/** A frame of the broadcast as a JPEG data URL for the list's thumbnail, or null when it has none or it is too large. */
export async function thumbnailOf(stream: MediaStream): Promise<string | null> {
  const blob = await jpegOfStream(stream);
  if (!blob) return null;
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
  return url.length <= LIVE_THUMBNAIL_MAX_CHARS ? url : null;
}
