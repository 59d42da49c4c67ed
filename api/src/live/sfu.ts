import type { MediaStreamTrack, PeerConfig, RTCPeerConnection, RTCRtpTransceiver, RtcpPacket, RtpPacket } from 'werift';
import { werift } from './werift.ts';
import { DomainError } from '../platform/errors.ts';
import { LOSS_HIGH, LayerChooser, LayerSwitch, rank } from './layers.ts';

/** Where the SFU listens and what address it announces (RTC_PORT_RANGE, RTC_PUBLIC_IP). */
export type SfuOptions = {
  portRange?: [number, number];
  publicIp?: string;
  /** The process's own STUN responder (`localStun.ts`), so gathering does not wait on an unreachable one. */
  stunUrl?: string;
  /** Least time between two keyframe asks relayed to a broadcaster: one late joiner's PLI storm must not flood the encoder. */
  keyframeIntervalMs?: number;
  /**
   * A constrained link in tests and the benchmark: answers whether a video packet to this viewer
   * goes out (false drops it, as a lossy network would). Production leaves it unset.
   */
  linkFilter?: (viewerId: string) => boolean;
  /** The process's count of what its SFU holds, shared by every stream's forwarder. */
  meter?: SfuMeter;
  /** A connection was refused because no UDP port was free (the log line is the caller's). */
  onPortsExhausted?: () => void;
};

/**
 * What this process's SFU holds across its streams, and what it refused: numbers for operators,
 * ready to become metrics. Ports are the scarce resource: RTC_PORT_RANGE bounds them per process.
 */
export class SfuMeter {
  /** Peer connections open now (counted until their close has released their ports). */
  openPeers = 0;
  /** UDP ports those connections hold: one per host candidate they announced. */
  boundPorts = 0;
  /** Connections refused since the process started because no UDP port was free. */
  portsExhausted = 0;
}

/** What a watcher (or broadcaster) is told when every UDP port of the SFU is taken. */
export const PORTS_EXHAUSTED_MESSAGE = 'Live video is full on this server right now. Try again in a few minutes.';

export type SessionDescription = { type: 'offer' | 'answer'; sdp: string };

const FIR_COUNT = 4;
const KIND = ['video', 'audio'] as const;
type Kind = (typeof KIND)[number];

/** One browser's peer connection and what it sends or receives. */
type Peer = { pc: RTCPeerConnection; senders: Partial<Record<Kind, RTCRtpTransceiver>> };
/**
 * A viewer: their connection, the layer they get and what decides it; `overloadedReports`, their
 * own receiver reports over LOSS_HIGH, is what a step down answers to.
 */
type Viewer = Peer & { layers: LayerSwitch; chooser: LayerChooser; overloadedReports: number };
/** One simulcast layer of the broadcaster's video ('' without simulcast), with its measured rate. */
type Layer = {
  rid: string;
  /** Learnt from its packets: where a keyframe ask for this layer goes. */
  ssrc?: number;
  receiver: RTCRtpTransceiver;
  bytes: number;
  windowStart: number;
  bps: number;
  lastPacketAt: number;
  lastKeyframeAsk: number;
};
/**
 * The broadcaster's header extensions (mid, rid) mean nothing on a viewer's connection, and werift
 * would send them on beside its own: a viewer's browser would take the packet for a layer it never
 * negotiated.
 */
function withoutExtensions(rtp: RtpPacket): RtpPacket {
  rtp.header.extensions = [];
  return rtp;
}

/** A layer that sent nothing for this long is paused (the broadcaster's browser stops layers it cannot afford). */
const LAYER_IDLE_MS = 1_500;

/**
 * A selective forwarding unit for one stream: one upstream from the broadcaster, its RTP copied to
 * every viewer's peer connection. Viewers only ever see the server's address.
 */
export class StreamForwarder {
  private publisher: Peer | undefined;
  private audio: { track: MediaStreamTrack; receiver: RTCRtpTransceiver } | undefined;
  private readonly layers = new Map<string, Layer>();
  private readonly viewers = new Map<string, Viewer>();
  private closed = false;
  /** Packets copied to viewers, for the benchmark and the tests. */
  forwarded = 0;
  /** This forwarder's connections not yet closed, and the UDP ports each holds (the meter's share). */
  private readonly ports = new Map<RTCPeerConnection, number>();

  constructor(private readonly opts: SfuOptions = {}) {}

  private newPeer(publisher = false): RTCPeerConnection {
    const { RTCPeerConnection, useOPUS, useSdesMid, useSdesRTPStreamId, useVP8 } = werift();
    const config: Partial<PeerConfig> = {
      codecs: { video: [useVP8()], audio: [useOPUS()] },
      // The rid extension tells simulcast layers apart on the broadcaster's connection; viewers'
      // connections need none, and every extension costs parsing on each of their packets.
      ...(publisher ? { headerExtensions: { video: [useSdesMid(), useSdesRTPStreamId()], audio: [useSdesMid()] } } : {}),
      iceUseIpv6: false,
      iceServers: this.opts.stunUrl ? [{ urls: this.opts.stunUrl }] : [],
      icePortRange: this.opts.portRange,
      iceAdditionalHostAddresses: this.opts.publicIp ? [this.opts.publicIp] : undefined,
    };
    const pc = new RTCPeerConnection(config);
    this.ports.set(pc, 0);
    if (this.opts.meter) this.opts.meter.openPeers++;
    return pc;
  }

  /** Closes a connection and, once its sockets are closed, takes it and its ports off the meter. */
  private async closePeer(pc: RTCPeerConnection): Promise<void> {
    const ports = this.ports.get(pc);
    this.ports.delete(pc);
    await pc.close().catch(() => undefined);
    if (ports === undefined || !this.opts.meter) return;
    this.opts.meter.openPeers--;
    this.opts.meter.boundPorts -= ports;
  }

  /**
   * Sets the local description and counts the ports it announced. werift gathers silently without
   * a port when the range is exhausted: a media section without a candidate can never connect, so
   * the connection is closed and refused instead of being offered.
   */
  private async describe(pc: RTCPeerConnection, description: ReturnType<RTCPeerConnection['createOffer']>): Promise<SessionDescription> {
    try {
      await pc.setLocalDescription(await description);
    } catch (err) {
      await this.closePeer(pc);
      throw err;
    }
    const local = this.described(pc);
    const sections = local.sdp.split(/\r?\nm=/).slice(1);
    const hosts = local.sdp.split(/\r?\n/).filter((l) => l.startsWith('a=candidate:') && / typ host\b/.test(l)).length;
    if (this.ports.has(pc)) {
      this.ports.set(pc, hosts);
      if (this.opts.meter) this.opts.meter.boundPorts += hosts;
    }
    if (sections.length === 0 || sections.some((m) => !/\r?\na=candidate:/.test(m))) {
      await this.closePeer(pc);
      if (this.opts.meter) this.opts.meter.portsExhausted++;
      this.opts.onPortsExhausted?.();
      throw new DomainError('unavailable', PORTS_EXHAUSTED_MESSAGE, 'live_full');
    }
    return local;
  }

  /** The broadcaster's offer (video and audio, send only) answered; the server receives its tracks. */
  async publish(offer: SessionDescription): Promise<SessionDescription> {
    if (this.closed) throw new Error('stream closed');
    if (this.publisher) void this.closePeer(this.publisher.pc);
    const pc = this.newPeer(true);
    const peer: Peer = { pc, senders: {} };
    this.publisher = peer;
    pc.onTrack.subscribe((track) => {
      const kind = track.kind as Kind;
      const receiver = pc.getTransceivers().find((t) => t.receiver.track === track || t.receiver.tracks.includes(track));
      if (!receiver || !KIND.includes(kind)) return;
      if (kind === 'audio') {
        this.audio = { track, receiver };
        track.onReceiveRtp.subscribe((rtp) => this.fanOutAudio(withoutExtensions(rtp).serialize()));
        return;
      }
      // werift announces a simulcast transceiver once, with its first layer: the others are its tracks.
      const withRid = receiver.receiver.tracks.filter((t) => t.rid);
      const tracks = withRid.length > 0 ? withRid : [track];
      for (const t of tracks) {
        const rid = t.rid ?? '';
        if (this.layers.has(rid)) continue;
        const layer: Layer = { rid, receiver, bytes: 0, windowStart: Date.now(), bps: 0, lastPacketAt: 0, lastKeyframeAsk: 0 };
        this.layers.set(rid, layer);
        t.onReceiveRtp.subscribe((rtp) => this.fanOutVideo(layer, rtp));
      }
    });
    try {
      await pc.setRemoteDescription(offer);
      return await this.describe(pc, pc.createAnswer());
    } catch (err) {
      if (this.publisher === peer) this.publisher = undefined;
      await this.closePeer(pc);
      throw err;
    }
  }

  /** An offer for a new viewer (receive only); their answer goes to `answerViewer`. */
  async addViewer(viewerId: string): Promise<SessionDescription> {
    if (this.closed) throw new Error('stream closed');
    this.removeViewer(viewerId);
    const pc = this.newPeer();
    const peer: Viewer = { pc, senders: {}, layers: new LayerSwitch(), chooser: new LayerChooser(Date.now()), overloadedReports: 0 };
    for (const kind of KIND) {
      const t = pc.addTransceiver(kind, { direction: 'sendonly' });
      peer.senders[kind] = t;
      if (kind === 'video') t.sender.onRtcp.subscribe((rtcp) => this.onViewerRtcp(peer, rtcp));
    }
    pc.connectionStateChange.subscribe((state) => {
      // A viewer whose picture starts now needs a keyframe, not the next one the encoder happens to make.
      if (state === 'connected') this.askKeyframe(Date.now(), peer.layers.target);
    });
    this.viewers.set(viewerId, peer);
    try {
      return await this.describe(pc, pc.createOffer());
    } catch (err) {
      if (this.viewers.get(viewerId) === peer) this.viewers.delete(viewerId);
      throw err;
    }
  }

  /** Whether a viewer's connection is up (answered, and their browser reached the SFU). */
  viewerConnected(viewerId: string): boolean {
    return this.viewers.get(viewerId)?.pc.connectionState === 'connected';
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
    void this.closePeer(peer.pc);
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Peer connections still open (the publisher's and the viewers'); 0 after `close`. */
  get openPeers(): number {
    return this.viewers.size + (this.publisher ? 1 : 0);
  }

  /** Asks the broadcaster for a keyframe of one layer (every layer when none is named), at most once per interval per layer. */
  askKeyframe(now = Date.now(), rid?: string): boolean {
    let asked = false;
    for (const layer of this.layers.values()) {
      if (rid !== undefined && layer.rid !== rid) continue;
      if (layer.ssrc === undefined || now - layer.lastKeyframeAsk < (this.opts.keyframeIntervalMs ?? 500)) continue;
      layer.lastKeyframeAsk = now;
      void layer.receiver.receiver.sendRtcpPLI(layer.ssrc).catch(() => undefined);
      asked = true;
    }
    return asked;
  }

  /**
   * The layer a viewer gets now (undefined before their first packet), how often it changed, and
   * how many of their receiver reports said their link was overloaded.
   */
  viewerLayer(viewerId: string): { rid: string | undefined; switches: number; overloadedReports: number } | undefined {
    const v = this.viewers.get(viewerId);
    return v && { rid: v.layers.current, switches: v.layers.switches, overloadedReports: v.overloadedReports };
  }

  /** The broadcaster's layers now, best first: the ones sending, by measured rate. */
  activeLayers(now = Date.now()): Array<{ rid: string; bps: number }> {
    return [...this.layers.values()]
      .filter((l) => now - l.lastPacketAt < LAYER_IDLE_MS)
      .sort((a, b) => b.bps - a.bps || rank(a.rid) - rank(b.rid))
      .map((l) => ({ rid: l.rid, bps: l.bps }));
  }

  async close(): Promise<void> {
    this.closed = true;
    const peers = [...this.viewers.values(), ...(this.publisher ? [this.publisher] : [])];
    this.viewers.clear();
    this.publisher = undefined;
    await Promise.all(peers.map((p) => this.closePeer(p.pc)));
  }

  private fanOutAudio(packet: Buffer) {
    // The sender rewrites a packet's header for its own connection: each viewer gets its own copy.
    for (const peer of this.viewers.values()) {
      const t = peer.senders.audio;
      if (!t || peer.pc.connectionState !== 'connected') continue;
      void t.sender.sendRtp(packet).catch(() => undefined);
      this.forwarded++;
    }
  }

  private fanOutVideo(layer: Layer, rtp: RtpPacket) {
    const now = Date.now();
    this.measure(layer, rtp, now);
    const packet = withoutExtensions(rtp).serialize();
    const layers = this.activeLayers(now);
    for (const [id, peer] of this.viewers) {
      const t = peer.senders.video;
      if (!t || peer.pc.connectionState !== 'connected') continue;
      const target = peer.chooser.choose(layers);
      if (target !== peer.layers.target) {
        peer.layers.target = target;
        // The switch waits for the new layer's keyframe: ask for one now.
        if (peer.layers.current !== undefined && target !== peer.layers.current) this.askKeyframe(now, target);
      }
      if (layer.rid !== peer.layers.current && layer.rid !== peer.layers.target) continue;
      // Each viewer's copy is renumbered for the layer it follows; parsing gives it its own header.
      const out = peer.layers.take(layer.rid, werift().RtpPacket.deSerialize(packet));
      if (!out || (this.opts.linkFilter && !this.opts.linkFilter(id))) continue;
      void t.sender.sendRtp(out).catch(() => undefined);
      this.forwarded++;
    }
  }

  private measure(layer: Layer, rtp: RtpPacket, now: number) {
    layer.lastPacketAt = now;
    layer.ssrc = rtp.header.ssrc;
    layer.bytes += rtp.payload.length + 12;
    const span = now - layer.windowStart;
    if (span >= 1000) {
      layer.bps = Math.round((layer.bytes * 8 * 1000) / span);
      layer.bytes = 0;
      layer.windowStart = now;
    }
  }

  private onViewerRtcp(peer: Viewer, rtcp: RtcpPacket) {
    const { PictureLossIndication, ReceiverEstimatedMaxBitrate, RtcpPayloadSpecificFeedback, RtcpRrPacket } = werift();
    if (rtcp instanceof RtcpRrPacket) {
      const lost = Math.max(0, ...rtcp.reports.map((r) => r.fractionLost / 256));
      if (lost > LOSS_HIGH) peer.overloadedReports++;
      peer.chooser.onLoss(lost, Date.now(), this.activeLayers().length);
      return;
    }
    if (!(rtcp instanceof RtcpPayloadSpecificFeedback)) return;
    if (rtcp.feedback instanceof ReceiverEstimatedMaxBitrate) {
      peer.chooser.onEstimate(Number(rtcp.feedback.bitrate));
      return;
    }
    const count = rtcp.feedback.count;
    // FIR's format number in the payload-specific feedback (RFC 5104); werift does not export its class.
    if (count === PictureLossIndication.count || count === FIR_COUNT) this.askKeyframe(Date.now(), peer.layers.current);
  }

  private described(pc: RTCPeerConnection): SessionDescription {
    const d = pc.localDescription;
    if (!d) throw new Error('no local description');
    return { type: d.type as 'offer' | 'answer', sdp: d.sdp };
  }
}
