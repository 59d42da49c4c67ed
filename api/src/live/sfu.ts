import {
  PictureLossIndication,
  RTCPeerConnection,
  RtcpPayloadSpecificFeedback,
  useOPUS,
  useVP8,
  type MediaStreamTrack,
  type PeerConfig,
  type RTCRtpTransceiver,
  type RtcpPacket,
} from 'werift';

/** Where the SFU listens and what address it announces (RTC_PORT_RANGE, RTC_PUBLIC_IP). */
export type SfuOptions = {
  portRange?: [number, number];
  publicIp?: string;
  /** The process's own STUN responder (`localStun.ts`), so gathering does not wait on an unreachable one. */
  stunUrl?: string;
  /** Least time between two keyframe asks relayed to a broadcaster: one late joiner's PLI storm must not flood the encoder. */
  keyframeIntervalMs?: number;
};

export type SessionDescription = { type: 'offer' | 'answer'; sdp: string };

const FIR_COUNT = 4;
const KIND = ['video', 'audio'] as const;
type Kind = (typeof KIND)[number];

/** One browser's peer connection and what it sends or receives. */
type Peer = { pc: RTCPeerConnection; senders: Partial<Record<Kind, RTCRtpTransceiver>> };

/**
 * A selective forwarding unit for one stream: one upstream from the broadcaster, its RTP copied to
 * every viewer's peer connection. Viewers only ever see the server's address.
 */
export class StreamForwarder {
  private publisher: Peer | undefined;
  private readonly upstream: Partial<Record<Kind, { track: MediaStreamTrack; receiver: RTCRtpTransceiver }>> = {};
  private readonly viewers = new Map<string, Peer>();
  private lastKeyframeAsk = 0;
  private closed = false;
  /** Packets copied to viewers, for the benchmark and the tests. */
  forwarded = 0;

  constructor(private readonly opts: SfuOptions = {}) {}

  private newPeer(): RTCPeerConnection {
    const config: Partial<PeerConfig> = {
      codecs: { video: [useVP8()], audio: [useOPUS()] },
      iceUseIpv6: false,
      iceServers: this.opts.stunUrl ? [{ urls: this.opts.stunUrl }] : [],
      icePortRange: this.opts.portRange,
      iceAdditionalHostAddresses: this.opts.publicIp ? [this.opts.publicIp] : undefined,
    };
    return new RTCPeerConnection(config);
  }

  /** The broadcaster's offer (video and audio, send only) answered; the server receives its tracks. */
  async publish(offer: SessionDescription): Promise<SessionDescription> {
    if (this.closed) throw new Error('stream closed');
    this.publisher?.pc.close().catch(() => undefined);
    const pc = this.newPeer();
    const peer: Peer = { pc, senders: {} };
    this.publisher = peer;
    pc.onTrack.subscribe((track) => {
      const kind = track.kind as Kind;
      const receiver = pc.getTransceivers().find((t) => t.receiver.track === track || t.receiver.tracks.includes(track));
      if (!receiver || !KIND.includes(kind)) return;
      this.upstream[kind] = { track, receiver };
      track.onReceiveRtp.subscribe((rtp) => this.fanOut(kind, rtp.serialize()));
    });
    await pc.setRemoteDescription(offer);
    await pc.setLocalDescription(await pc.createAnswer());
    return this.described(pc);
  }

  /** An offer for a new viewer (receive only); their answer goes to `answerViewer`. */
  async addViewer(viewerId: string): Promise<SessionDescription> {
    if (this.closed) throw new Error('stream closed');
    this.removeViewer(viewerId);
    const pc = this.newPeer();
    const peer: Peer = { pc, senders: {} };
    for (const kind of KIND) {
      const t = pc.addTransceiver(kind, { direction: 'sendonly' });
      peer.senders[kind] = t;
      if (kind === 'video') t.sender.onRtcp.subscribe((rtcp) => this.onViewerRtcp(rtcp));
    }
    pc.connectionStateChange.subscribe((state) => {
      // A viewer whose picture starts now needs a keyframe, not the next one the encoder happens to make.
      if (state === 'connected') this.askKeyframe();
    });
    this.viewers.set(viewerId, peer);
    await pc.setLocalDescription(await pc.createOffer());
    return this.described(pc);
  }

  async answerViewer(viewerId: string, answer: SessionDescription): Promise<void> {
    const peer = this.viewers.get(viewerId);
    if (!peer) throw new Error('unknown viewer');
    await peer.pc.setRemoteDescription(answer);
  }

  removeViewer(viewerId: string): void {
    const peer = this.viewers.get(viewerId);
    if (!peer) return;
    this.viewers.delete(viewerId);
    void peer.pc.close().catch(() => undefined);
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Peer connections still open (the publisher's and the viewers'); 0 after `close`. */
  get openPeers(): number {
    return this.viewers.size + (this.publisher ? 1 : 0);
  }

  /** Asks the broadcaster for a keyframe, at most once per interval. */
  askKeyframe(now = Date.now()): boolean {
    const video = this.upstream.video;
    if (!video || video.track.ssrc === undefined || now - this.lastKeyframeAsk < (this.opts.keyframeIntervalMs ?? 500)) return false;
    this.lastKeyframeAsk = now;
    void video.receiver.receiver.sendRtcpPLI(video.track.ssrc).catch(() => undefined);
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const peers = [...this.viewers.values(), ...(this.publisher ? [this.publisher] : [])];
    this.viewers.clear();
    this.publisher = undefined;
    await Promise.all(peers.map((p) => p.pc.close().catch(() => undefined)));
  }

  private fanOut(kind: Kind, packet: Buffer) {
    // The sender rewrites a packet's header for its own connection: each viewer gets its own copy.
    for (const peer of this.viewers.values()) {
      const t = peer.senders[kind];
      if (!t || peer.pc.connectionState !== 'connected') continue;
      void t.sender.sendRtp(packet).catch(() => undefined);
      this.forwarded++;
    }
  }

  private onViewerRtcp(rtcp: RtcpPacket) {
    if (!(rtcp instanceof RtcpPayloadSpecificFeedback)) return;
    const count = rtcp.feedback.count;
    // FIR's format number in the payload-specific feedback (RFC 5104); werift does not export its class.
    if (count === PictureLossIndication.count || count === FIR_COUNT) this.askKeyframe();
  }

  private described(pc: RTCPeerConnection): SessionDescription {
    const d = pc.localDescription;
    if (!d) throw new Error('no local description');
    return { type: d.type as 'offer' | 'answer', sdp: d.sdp };
  }
}
