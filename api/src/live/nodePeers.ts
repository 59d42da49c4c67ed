import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket, useOPUS, useVP8 } from 'werift';
import type { SessionDescription } from './sfu.ts';

/**
 * WebRTC peers in Node for the tests and the benchmark: a broadcaster sending a synthetic stream
 * and viewers counting what arrives. The payload carries its send time, so a viewer measures delay.
 */

const peerConfig = (stunUrl: string) => ({
  codecs: { video: [useVP8()], audio: [useOPUS()] },
  iceUseIpv6: false,
  iceServers: [{ urls: stunUrl }],
});

export type NodeBroadcaster = {
  offer(): Promise<SessionDescription>;
  accept(answer: SessionDescription): Promise<void>;
  /** Starts sending `bitsPerSecond` of video in packets of `packetBytes`; returns a stop function. */
  send(bitsPerSecond: number, packetBytes?: number): () => void;
  keyframeAsks: number;
  close(): Promise<void>;
};

/** `stunUrl`: a `localStun.ts` responder, so gathering is immediate. */
export function nodeBroadcaster(stunUrl: string): NodeBroadcaster {
  const pc = new RTCPeerConnection(peerConfig(stunUrl));
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  const vt = pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  const self: NodeBroadcaster = {
    keyframeAsks: 0,
    async offer() {
      await pc.setLocalDescription(await pc.createOffer());
      const d = pc.localDescription!;
      return { type: 'offer', sdp: d.sdp };
    },
    accept: (answer) => pc.setRemoteDescription(answer),
    send(bitsPerSecond, packetBytes = 1100) {
      let seq = 0;
      const packetsPerTick = Math.max(1, Math.round(bitsPerSecond / 8 / packetBytes / 100));
      const timer = setInterval(() => {
        for (let i = 0; i < packetsPerTick; i++) {
          const payload = Buffer.alloc(packetBytes);
          payload.writeDoubleBE(performance.timeOrigin + performance.now(), 0);
          payload.writeUInt32BE(seq, 8);
          const header = new RtpHeader({
            sequenceNumber: seq++ & 0xffff,
            timestamp: Math.floor(performance.now() * 90),
            payloadType: 96,
            marker: i === packetsPerTick - 1,
          });
          video.writeRtp(new RtpPacket(header, payload));
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
  /** Delay of each video packet received (ms), and the highest packet number seen. */
  delays: number[];
  received: number;
  lastSeq: number;
  firstSeq: number;
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
    audioTrack: new Promise((r) => (audioSeen = r)),
    connected: new Promise((resolve) => {
      pc.connectionStateChange.subscribe((s) => {
        if (s === 'connected') resolve();
      });
    }),
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
      if (rtp.payload.length < 12) return;
      self.delays.push(performance.timeOrigin + performance.now() - rtp.payload.readDoubleBE(0));
      const seq = rtp.payload.readUInt32BE(8);
      if (self.firstSeq < 0) self.firstSeq = seq;
      self.lastSeq = Math.max(self.lastSeq, seq);
      self.received++;
    });
  });
  return self;
}
