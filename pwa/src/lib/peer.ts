import type { MediaConnection, PeerOptions } from 'peerjs';
import type { PeerTicketAnswer, RtcConfig } from '@parley/contract/videoChat';

/**
 * One PeerJS media call per video room. The server decides who calls (`initiator` in the room
 * setup) so exactly one offer is made; the other side answers only a call from the partner's
 * peer id of this room. Ending it, for any reason, closes the RTCPeerConnection and destroys the
 * peer, and is safe to call twice.
 */

export type CallRole = 'caller' | 'answerer';
export type CallPlan = { role: CallRole; peerId: string; partnerPeerId: string };
/** `unanswered`: the answerer waited in vain; the caller's own page says why (placing it again would not help). */
export type CallEndReason = 'hangup' | 'network' | 'failed' | 'unanswered';
export type CallEvents = {
  onRemoteStream(stream: MediaStream): void;
  onConnected(): void;
  onEnded(reason: CallEndReason, detail?: string): void;
};

/** The set-up decision: one side calls, the other answers, from the room setup the server sent. */
export function planCall(setup: { initiator: boolean }, ticket: Pick<PeerTicketAnswer, 'peerId' | 'partnerPeerId'>): CallPlan {
  return { role: setup.initiator ? 'caller' : 'answerer', peerId: ticket.peerId, partnerPeerId: ticket.partnerPeerId };
}

/** An incoming call is answered only by the answerer, only from this room's partner, and only once. */
export function shouldAnswer(plan: CallPlan, callerPeerId: string, alreadyInCall: boolean): boolean {
  return plan.role === 'answerer' && callerPeerId === plan.partnerPeerId && !alreadyInCall;
}

/** PeerJS options for the signalling server: same origin unless the config names another. */
export function peerOptions(
  config: RtcConfig,
  ticket: string,
  location: { protocol: string; hostname: string; port: string },
): PeerOptions {
  const base = config.peer.url ? new URL(config.peer.url) : null;
  const protocol = base?.protocol ?? location.protocol;
  const secure = protocol === 'https:';
  const port = Number((base ? base.port : location.port) || (secure ? 443 : 80));
  return {
    host: base?.hostname ?? location.hostname,
    port,
    path: config.peer.path,
    key: config.peer.key,
    secure,
    token: ticket,
    config: { iceServers: config.iceServers, iceTransportPolicy: config.iceTransportPolicy },
    debug: 1,
  };
}

/** The parts of PeerJS's Peer the call uses (a fake in tests). */
export type PeerLike = {
  on(event: 'open', fn: (id: string) => void): unknown;
  on(event: 'call', fn: (call: MediaConnectionLike) => void): unknown;
  on(event: 'error', fn: (err: { type?: string; message: string }) => void): unknown;
  call(peerId: string, stream: MediaStream): MediaConnectionLike;
  destroy(): void;
  readonly destroyed: boolean;
};
export type MediaConnectionLike = Pick<MediaConnection, 'peer' | 'answer' | 'close'> & {
  on(event: 'stream', fn: (stream: MediaStream) => void): unknown;
  on(event: 'close', fn: () => void): unknown;
  on(event: 'error', fn: (err: { type?: string; message: string }) => void): unknown;
  readonly peerConnection: RTCPeerConnection | null | undefined;
};
export type PeerFactory = (peerId: string, options: PeerOptions) => PeerLike;

/** PeerJS errors that mean the signalling server is out of reach, not the partner. */
const SIGNALLING_LOST = new Set(['network', 'disconnected', 'socket-error', 'socket-closed', 'server-error']);

/** How long ICE may stay `disconnected` before the call counts as lost (brief blips recover by themselves). */
export const NETWORK_GRACE_MS = 5000;
/** How long the answerer waits for the partner's call. */
export const ANSWER_TIMEOUT_MS = 20_000;

export class VideoCall {
  private peer: PeerLike | null = null;
  private media: MediaConnectionLike | null = null;
  private remote: MediaStream | null = null;
  private ended = false;
  private connected = false;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private answerTimer: ReturnType<typeof setTimeout> | null = null;
  private pcCleanup: (() => void) | null = null;

  constructor(
    readonly plan: CallPlan,
    private readonly local: MediaStream,
    private readonly events: CallEvents,
    private readonly createPeer: PeerFactory,
  ) {}

  start(options: PeerOptions): void {
    const peer = this.createPeer(this.plan.peerId, options);
    this.peer = peer;
    peer.on('error', (err) => {
      if (this.ended) return;
      console.error('[video] peer error:', err.type, err.message);
      // The media flows peer to peer: once the call is up, losing the signalling server (our
      // network dropped for a moment) does not end it. ICE says when the media itself is lost.
      if (this.connected && SIGNALLING_LOST.has(err.type ?? '')) return;
      this.end('failed', err.type === 'peer-unavailable' ? 'Your partner could not be reached.' : err.message);
    });
    if (this.plan.role === 'caller') {
      // Call once registered: with a fixed id PeerJS drops signalling sent before its socket opens.
      // If the partner has not registered yet, the signalling server holds the offer for them.
      peer.on('open', () => {
        if (!this.ended && !this.media) this.attach(peer.call(this.plan.partnerPeerId, this.local));
      });
    } else {
      peer.on('call', (call) => {
        if (this.ended || !shouldAnswer(this.plan, call.peer, this.media !== null)) {
          call.close();
          return;
        }
        this.attach(call);
        call.answer(this.local);
      });
      this.answerTimer = setTimeout(() => {
        if (!this.media && !this.ended) this.end('unanswered', 'Your partner did not call.');
      }, ANSWER_TIMEOUT_MS);
    }
  }

  private attach(call: MediaConnectionLike) {
    this.media = call;
    if (this.answerTimer) clearTimeout(this.answerTimer);
    call.on('stream', (stream) => {
      if (this.ended || this.remote === stream) return;
      this.remote = stream;
      this.events.onRemoteStream(stream);
      this.watch(call.peerConnection);
    });
    call.on('close', () => this.end('hangup'));
    call.on('error', (err) => this.end('failed', err.message));
  }

  /** Network loss: ICE `failed` ends at once, `disconnected` after a grace period. */
  private watch(pc: RTCPeerConnection | null | undefined) {
    if (!pc || this.pcCleanup) return;
    const check = () => {
      const state = pc.connectionState ?? pc.iceConnectionState;
      if (state === 'connected' && !this.connected) {
        this.connected = true;
        this.events.onConnected();
      }
      if (state === 'connected' && this.graceTimer) {
        clearTimeout(this.graceTimer);
        this.graceTimer = null;
      } else if (state === 'failed' || state === 'closed') {
        this.end('network');
      } else if (state === 'disconnected' && !this.graceTimer) {
        this.graceTimer = setTimeout(() => this.end('network'), NETWORK_GRACE_MS);
      }
    };
    pc.addEventListener('connectionstatechange', check);
    pc.addEventListener('iceconnectionstatechange', check);
    this.pcCleanup = () => {
      pc.removeEventListener('connectionstatechange', check);
      pc.removeEventListener('iceconnectionstatechange', check);
    };
    check();
  }

  /** Sends another track in place of the current one of its kind, without renegotiating. */
  async replaceTrack(kind: 'audio' | 'video', track: MediaStreamTrack): Promise<boolean> {
    const pc = this.media?.peerConnection;
    if (!pc || this.ended) return false;
    const sender = pc.getSenders().find((s) => s.track?.kind === kind || (s.track === null && track.kind === kind));
    if (!sender) return false;
    await sender.replaceTrack(track);
    return true;
  }

  get peerConnection(): RTCPeerConnection | null {
    return this.media?.peerConnection ?? null;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Hangs up and releases everything of this call; the local camera belongs to the caller of this class. */
  end(reason: CallEndReason = 'hangup', detail?: string): void {
    if (this.ended) return;
    this.ended = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.pcCleanup?.();
    try {
      this.media?.close();
    } catch {
      // already closed by the other side
    }
    // PeerJS closes the RTCPeerConnection in close(); make sure even if it threw half-way.
    const pc = this.media?.peerConnection;
    if (pc && pc.signalingState !== 'closed') pc.close();
    this.remote?.getTracks().forEach((t) => t.stop());
    if (this.peer && !this.peer.destroyed) this.peer.destroy();
    this.media = null;
    this.peer = null;
    this.remote = null;
    this.events.onEnded(reason, detail);
  }
}
