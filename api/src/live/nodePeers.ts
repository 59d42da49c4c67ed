import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket, useOPUS, useSdesMid, useSdesRTPStreamId, useVP8 } from 'werift';
import type { SessionDescription } from './sfu.ts';

/**
 * WebRTC peers in Node for the tests and the benchmark: a broadcaster sending a synthetic stream
 * and viewers counting what arrives. Each packet is shaped as VP8 (a payload descriptor and, at a
 * frame's start, the keyframe bit), then carries its send time, its number and its layer, so a
 * viewer measures delay and sees which layer it gets.
 */

const peerConfig = (stunUrl: string, simulcast = false) => ({
  codecs: { video: [useVP8()], audio: [useOPUS()] },
  // Only a simulcast sender needs the rid extension (viewers pay for parsing any extension).
  ...(simulcast ? { headerExtensions: { video: [useSdesMid(), useSdesRTPStreamId()], audio: [useSdesMid()] } } : {}),
  iceUseIpv6: false,
  iceServers: [{ urls: stunUrl }],
});

/** Resolves once the connection reaches 'connected'. */
function connectedOf(pc: RTCPeerConnection): Promise<void> {
  return new Promise((resolve) => {
    pc.connectionStateChange.subscribe((s) => {
      if (s === 'connected') resolve();
    });
  });
}

/**
 * True once the peer has connected, false if it has not within `ms`. On a machine at full load
 * ICE checks take seconds, or time out and leave the connection failed: tests about media wait for
 * this rather than for packets within a fixed time, and can name `state` when it stays false.
 */
export async function connectedWithin(peer: { connected: Promise<void> }, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const connected = await Promise.race([peer.connected.then(() => true), new Promise<false>((r) => (timer = setTimeout(r, ms, false)))]);
  clearTimeout(timer);
  return connected;
}

/** Where the synthetic fields start: after the VP8 payload descriptor and header bytes. */
const DATA_AT = 2;
/** A frame every 10 ms; a keyframe every this many frames (and on the first). */
const KEYFRAME_EVERY = 50;

/** SDP lines that make a one-encoding video offer a simulcast offer with these rids. */
function simulcastOffer(sdp: string, rids: string[]): string {
  const lines = rids
    .map((r) => `a=rid:${r} send`)
    .concat(`a=simulcast:send ${rids.join(';')}`)
    .join('\r\n');
  return sdp
    .split(/\r\n(?=m=)/)
    .map((section) =>
      section.startsWith('m=video') ? `${section.replace(/\r\n$/, '')}\r\n${lines}${section.endsWith('\r\n') ? '\r\n' : ''}` : section,
    )
    .join('\r\n');
}

export type NodeBroadcaster = {
  offer(): Promise<SessionDescription>;
  accept(answer: SessionDescription): Promise<void>;
  /** Starts sending `bitsPerSecond` of video in packets of `packetBytes`; returns a stop function. */
  send(bitsPerSecond: number, packetBytes?: number): () => void;
  keyframeAsks: number;
  /** The peer connection's state now ('new', 'connecting', 'connected', 'failed', …). */
  readonly state: string;
  connected: Promise<void>;
  close(): Promise<void>;
};

/**
 * `stunUrl`: a `localStun.ts` responder, so gathering is immediate. `layers`: simulcast rids (best
 * first) sent on the one video track, each at its share of the bit rate; none: one plain stream.
 */
export function nodeBroadcaster(stunUrl: string, layers: string[] = []): NodeBroadcaster {
  const pc = new RTCPeerConnection(peerConfig(stunUrl, layers.length > 0));
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  const vt = pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  const self: NodeBroadcaster = {
    keyframeAsks: 0,
    get state() {
      return pc.connectionState;
    },
    connected: connectedOf(pc),
    async offer() {
      await pc.setLocalDescription(await pc.createOffer());
      const d = pc.localDescription!;
      return { type: 'offer', sdp: layers.length ? simulcastOffer(d.sdp, layers) : d.sdp };
    },
    accept: (answer) => pc.setRemoteDescription(answer),
    send(bitsPerSecond, packetBytes = 1100) {
      const sender = vt.sender;
      const plain = layers.length === 0;
      // Simulcast layers at 4:2:1 of the whole, each with its own SSRC and numbering.
      const streams = (plain ? [''] : layers).map((rid, i) => ({
        rid,
        index: i,
        seq: 0,
        ssrc: plain ? sender.ssrc : (sender.ssrc + i + 1) >>> 0,
        perTick: Math.max(
          1,
          Math.round((bitsPerSecond * (plain ? 1 : 2 ** (layers.length - 1 - i) / (2 ** layers.length - 1))) / 8 / packetBytes / 100),
        ),
      }));
      let frame = 0;
      const timer = setInterval(() => {
        const key = frame++ % KEYFRAME_EVERY === 0;
        for (const st of streams) {
          for (let i = 0; i < st.perTick; i++) {
            const payload = Buffer.alloc(packetBytes);
            // VP8 descriptor: S (start of a partition) on a frame's first packet; then P = 0 on a keyframe.
            payload[0] = i === 0 ? 0x10 : 0x00;
            payload[1] = key ? 0x00 : 0x01;
            payload.writeDoubleBE(performance.timeOrigin + performance.now(), DATA_AT);
            payload.writeUInt32BE(st.seq, DATA_AT + 8);
            payload.writeUInt8(st.index, DATA_AT + 12);
            const header = new RtpHeader({
              sequenceNumber: st.seq++ & 0xffff,
              timestamp: Math.floor(performance.now() * 90),
              payloadType: 96,
              marker: i === st.perTick - 1,
            });
            if (plain) video.writeRtp(new RtpPacket(header, payload));
            else {
              // werift sends one encoding per sender: each layer's packet goes out under its own rid and SSRC.
              Object.assign(sender, { rtpStreamId: st.rid, ssrc: st.ssrc });
              void sender.sendRtp(new RtpPacket(header, payload)).catch(() => undefined);
            }
          }
        }
      }, 10);
      return () => clearInterval(timer);
    },
    close: () => pc.close(),
  };
  vt.sender.onRtcp.subscribe((rtcp) => {
    if (rtcp.type === 206) self.keyframeAsks++;
  });
  return self;
}

export type NodeViewer = {
  answer(offer: SessionDescription): Promise<SessionDescription>;
  connected: Promise<void>;
  /** The peer connection's state now ('new', 'connecting', 'connected', 'failed', …). */
  readonly state: string;
  /** Delay of each video packet received (ms), and the highest packet number seen. */
  delays: number[];
  received: number;
  lastSeq: number;
  firstSeq: number;
  /** Packets received per layer index (0 = best; one plain stream is layer 0). */
  layers: number[];
  audioTrack: Promise<void>;
  close(): Promise<void>;
};

export function nodeViewer(stunUrl: string): NodeViewer {
  const pc = new RTCPeerConnection(peerConfig(stunUrl));
  let audioSeen!: () => void;
  const self: NodeViewer = {
    delays: [],
    received: 0,
    lastSeq: -1,
    firstSeq: -1,
    layers: [],
    audioTrack: new Promise((r) => (audioSeen = r)),
    connected: connectedOf(pc),
    get state() {
      return pc.connectionState;
    },
    async answer(offer) {
      await pc.setRemoteDescription(offer);
      await pc.setLocalDescription(await pc.createAnswer());
      return { type: 'answer', sdp: pc.localDescription!.sdp };
    },
    close: () => pc.close(),
  };
  pc.onTrack.subscribe((track) => {
    if (track.kind === 'audio') return audioSeen();
    track.onReceiveRtp.subscribe((rtp) => {
      if (rtp.payload.length < DATA_AT + 13) return;
      self.delays.push(performance.timeOrigin + performance.now() - rtp.payload.readDoubleBE(DATA_AT));
      const layer = rtp.payload.readUInt8(DATA_AT + 12);
      self.layers[layer] = (self.layers[layer] ?? 0) + 1;
      const seq = rtp.payload.readUInt32BE(DATA_AT + 8);
      if (self.firstSeq < 0) self.firstSeq = seq;
      self.lastSeq = Math.max(self.lastSeq, seq);
      self.received++;
    });
  });
  return self;
}
