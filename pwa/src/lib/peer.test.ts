import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NETWORK_GRACE_MS,
  peerOptions,
  planCall,
  shouldAnswer,
  VideoCall,
  type CallEvents,
  type MediaConnectionLike,
  type PeerLike,
} from './peer';

class FakeTrack {
  stopped = false;
  constructor(readonly kind: 'audio' | 'video') {}
  stop() {
    this.stopped = true;
  }
}
const fakeStream = (tracks: FakeTrack[]) => ({ getTracks: () => tracks }) as unknown as MediaStream;

class FakePc extends EventTarget {
  connectionState: RTCPeerConnectionState = 'new';
  signalingState: RTCSignalingState = 'stable';
  closed = 0;
  senders = [
    {
      track: new FakeTrack('audio'),
      replaceTrack: vi.fn(async function (this: { track: unknown }, t: unknown) {
        this.track = t;
      }),
    },
    {
      track: new FakeTrack('video'),
      replaceTrack: vi.fn(async function (this: { track: unknown }, t: unknown) {
        this.track = t;
      }),
    },
  ];
  getSenders() {
    return this.senders;
  }
  close() {
    this.closed++;
    this.signalingState = 'closed';
  }
  set(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.dispatchEvent(new Event('connectionstatechange'));
  }
}

class FakeCall extends EventEmitter {
  readonly peerConnection = new FakePc() as unknown as RTCPeerConnection;
  closed = 0;
  answered: MediaStream | undefined;
  constructor(readonly peer: string) {
    super();
  }
  answer(stream?: MediaStream) {
    this.answered = stream;
  }
  close() {
    this.closed++;
    this.emit('close');
  }
  get pc() {
    return this.peerConnection as unknown as FakePc;
  }
}

class FakePeer extends EventEmitter {
  destroyed = false;
  calls: FakeCall[] = [];
  call(peerId: string) {
    const c = new FakeCall(peerId);
    this.calls.push(c);
    return c as unknown as MediaConnectionLike;
  }
  destroy() {
    this.destroyed = true;
  }
}

const plan = (initiator: boolean) => planCall({ initiator }, { peerId: 'me', partnerPeerId: 'partner' });

function setup(initiator: boolean) {
  const peer = new FakePeer();
  const events = { onRemoteStream: vi.fn(), onConnected: vi.fn(), onEnded: vi.fn() } satisfies CallEvents;
  const local = fakeStream([new FakeTrack('audio'), new FakeTrack('video')]);
  const factory = vi.fn(() => peer as unknown as PeerLike);
  const call = new VideoCall(plan(initiator), local, events, factory);
  call.start({ host: 'localhost', path: '/peerjs', token: 't' });
  peer.emit('open', 'me');
  return { peer, events, call, factory, local };
}

describe('the call set-up decision', () => {
  it('makes the initiator the caller and the other side the answerer', () => {
    expect(plan(true).role).toBe('caller');
    expect(plan(false).role).toBe('answerer');
  });

  it('answers only the partner of this room, only once, and never as the caller', () => {
    expect(shouldAnswer(plan(false), 'partner', false)).toBe(true);
    expect(shouldAnswer(plan(false), 'someone-else', false)).toBe(false);
    expect(shouldAnswer(plan(false), 'partner', true)).toBe(false);
    expect(shouldAnswer(plan(true), 'partner', false)).toBe(false);
  });

  it('the caller registers its own id and, once registered, calls the partner with the local stream', () => {
    const peer = new FakePeer();
    const factory = vi.fn(() => peer as unknown as PeerLike);
    const call = new VideoCall(plan(true), fakeStream([]), { onRemoteStream: vi.fn(), onConnected: vi.fn(), onEnded: vi.fn() }, factory);
    call.start({ token: 't' });
    expect(factory).toHaveBeenCalledWith('me', expect.objectContaining({ token: 't' }));
    // PeerJS drops signalling sent before its socket is open: no call yet.
    expect(peer.calls).toHaveLength(0);
    peer.emit('open', 'me');
    expect(peer.calls.map((c) => c.peer)).toEqual(['partner']);
  });

  it("the answerer answers the partner's call with the local stream and hangs up on anyone else", () => {
    const { peer, local } = setup(false);
    const intruder = new FakeCall('intruder');
    peer.emit('call', intruder);
    expect(intruder.closed).toBe(1);
    expect(intruder.answered).toBeUndefined();
    const partner = new FakeCall('partner');
    peer.emit('call', partner);
    expect(partner.answered).toBe(local);
    const second = new FakeCall('partner');
    peer.emit('call', second);
    expect(second.closed).toBe(1);
  });

  it('builds PeerJS options for the same origin or a standalone signalling server', () => {
    const cfg = {
      iceServers: [{ urls: 'stun:stun.example.org' }],
      iceTransportPolicy: 'all' as const,
      peer: { path: '/peerjs', key: 'parley', url: null },
    };
    expect(peerOptions(cfg, 'tk', { protocol: 'https:', hostname: 'parley.example', port: '' })).toMatchObject({
      host: 'parley.example',
      port: 443,
      secure: true,
      path: '/peerjs',
      key: 'parley',
      token: 'tk',
      config: { iceServers: cfg.iceServers, iceTransportPolicy: 'all' },
    });
    expect(
      peerOptions({ ...cfg, peer: { ...cfg.peer, url: 'http://peer.internal:9000' } }, 'tk', {
        protocol: 'https:',
        hostname: 'x',
        port: '',
      }),
    ).toMatchObject({
      host: 'peer.internal',
      port: 9000,
      secure: false,
    });
  });
});

describe('clean-up', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hanging up closes the media connection and peer connection, stops remote tracks and destroys the peer, once', () => {
    const { peer, call, events } = setup(true);
    const media = peer.calls[0]!;
    const remoteTracks = [new FakeTrack('audio'), new FakeTrack('video')];
    media.emit('stream', fakeStream(remoteTracks));
    expect(events.onRemoteStream).toHaveBeenCalledTimes(1);
    call.end('hangup');
    call.end('hangup');
    expect(media.closed).toBe(1);
    expect(media.pc.closed).toBe(1);
    expect(remoteTracks.every((t) => t.stopped)).toBe(true);
    expect(peer.destroyed).toBe(true);
    expect(events.onEnded).toHaveBeenCalledTimes(1);
    expect(events.onEnded).toHaveBeenCalledWith('hangup', undefined);
  });

  it('does not stop the local camera: it belongs to the page, which reuses it for the next partner', () => {
    const { call, local } = setup(true);
    call.end();
    expect((local.getTracks() as unknown as FakeTrack[]).some((t) => t.stopped)).toBe(false);
  });

  it('the partner hanging up ends the call here', () => {
    const { peer, events, call } = setup(true);
    peer.calls[0]!.emit('close');
    expect(call.isEnded).toBe(true);
    expect(peer.destroyed).toBe(true);
    expect(events.onEnded).toHaveBeenCalledWith('hangup', undefined);
  });

  it('network loss: ICE failed ends at once; disconnected ends after the grace period unless it recovers', () => {
    const a = setup(true);
    a.peer.calls[0]!.emit('stream', fakeStream([]));
    a.peer.calls[0]!.pc.set('connected');
    expect(a.events.onConnected).toHaveBeenCalledTimes(1);
    a.peer.calls[0]!.pc.set('failed');
    expect(a.events.onEnded).toHaveBeenCalledWith('network', undefined);

    const b = setup(true);
    const pc = b.peer.calls[0]!.pc;
    b.peer.calls[0]!.emit('stream', fakeStream([]));
    pc.set('connected');
    pc.set('disconnected');
    vi.advanceTimersByTime(NETWORK_GRACE_MS - 1);
    pc.set('connected');
    vi.advanceTimersByTime(NETWORK_GRACE_MS * 2);
    expect(b.call.isEnded).toBe(false);
    pc.set('disconnected');
    vi.advanceTimersByTime(NETWORK_GRACE_MS);
    expect(b.call.isEnded).toBe(true);
    expect(pc.closed).toBe(1);
  });

  it('a signalling error (partner unreachable) ends the call and releases the peer', () => {
    const { peer, events } = setup(true);
    peer.emit('error', { type: 'peer-unavailable', message: 'Could not connect to peer partner' });
    expect(peer.destroyed).toBe(true);
    expect(events.onEnded).toHaveBeenCalledWith('failed', 'Your partner could not be reached.');
  });

  it('losing the signalling server ends a call still being set up, but not one whose media flows', () => {
    const early = setup(true);
    early.peer.emit('error', { type: 'network', message: 'Lost connection to server.' });
    expect(early.events.onEnded).toHaveBeenCalledWith('failed', 'Lost connection to server.');

    const { peer, events, call } = setup(true);
    peer.calls[0]!.emit('stream', fakeStream([]));
    peer.calls[0]!.pc.set('connected');
    peer.emit('error', { type: 'network', message: 'Lost connection to server.' });
    peer.emit('error', { type: 'socket-closed', message: 'Underlying socket is already closed.' });
    expect(call.isEnded).toBe(false);
    expect(events.onEnded).not.toHaveBeenCalled();
    // Any other failure still ends it.
    peer.emit('error', { type: 'webrtc', message: 'Negotiation failed' });
    expect(events.onEnded).toHaveBeenCalledWith('failed', 'Negotiation failed');
  });

  it('an answerer whose partner never calls gives up and releases the peer', () => {
    const { peer, events } = setup(false);
    vi.advanceTimersByTime(60_000);
    expect(peer.destroyed).toBe(true);
    expect(events.onEnded).toHaveBeenCalledWith('unanswered', 'Your partner did not call.');
  });

  it('replaces the video track on the sender without a new call', async () => {
    const { peer, call } = setup(true);
    const media = peer.calls[0]!;
    const next = new FakeTrack('video') as unknown as MediaStreamTrack;
    await expect(call.replaceTrack('video', next)).resolves.toBe(true);
    expect(media.pc.senders[1]!.replaceTrack).toHaveBeenCalledWith(next);
    expect(peer.calls).toHaveLength(1);
    call.end();
    await expect(call.replaceTrack('video', next)).resolves.toBe(false);
  });
});
