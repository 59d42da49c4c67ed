import { useEffect, useRef, useState } from 'react';
import { Peer } from 'peerjs';
import type { RtcConfig } from '@parley/contract/videoChat';
import { planCall, peerOptions, VideoCall, type CallEndReason, type PeerFactory } from '../../lib/peer';
import type { LocalMedia } from '../../lib/media/localMedia';
import { useAppDispatch } from '../../store/hooks';
import { usePeerTicketMutation } from './videoChatApi';
import { videoChatActions } from './videoChatSlice';
import { videoChatRoom } from './videoChatRoom';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const createPeer: PeerFactory = (id, options) => new Peer(id, options);

const notSetUp = () => i18n._(msg`The video call could not be set up. You can still chat by text, or press Next.`);

/** In the interface language by reason (PeerJS's own details are technical English, for the console). */
function problemFor(reason: CallEndReason, detail?: string): string {
  if (detail) console.info('[video] call ended:', reason, detail);
  if (reason === 'network') return i18n._(msg`The video connection was lost. You can still chat by text, or press Next.`);
  if (reason === 'unanswered') return i18n._(msg`Your partner did not call. You can still chat by text, or press Next.`);
  return notSetUp();
}

/**
 * The PeerJS call of the current room: set up when the room starts (the server's `initiator`
 * calls, the other answers), its tracks replaced when the camera, microphone or filter changes,
 * and torn down — connection closed, peer destroyed — as soon as the room ends for any reason.
 */
export function useVideoCall(opts: {
  media: LocalMedia | null;
  mediaReady: boolean;
  config: RtcConfig | undefined;
  roomId: string | null;
  partnerId: string | null;
  initiator: boolean;
  /** The attempt of the room's call (`video:redial`): a new one sets the call up afresh. */
  attempt: number;
  active: boolean;
}) {
  const { media, mediaReady, config, roomId, partnerId, initiator, attempt, active } = opts;
  const dispatch = useAppDispatch();
  const [peerTicket] = usePeerTicketMutation();
  const [remote, setRemote] = useState<{ roomId: string; stream: MediaStream } | null>(null);
  const callRef = useRef<VideoCall | null>(null);

  useEffect(() => {
    if (!active || !roomId || !partnerId || !config || !mediaReady || !media) return;
    let cancelled = false;
    let call: VideoCall | null = null;
    let offTracks: (() => void) | null = null;
    // `redial`: the failure may pass (a connection lost, a partner who could not be reached).
    const fail = (problem: string, redial = true) => dispatch(videoChatRoom.callFailed({ roomId, attempt, problem, redial }));

    void (async () => {
      const ticket = await peerTicket({ roomId, partnerId, attempt })
        .unwrap()
        .catch((e: unknown) => {
          console.error('[video] peer ticket refused', e);
          return null;
        });
      if (cancelled) return;
      if (!ticket) return fail(notSetUp());
      const plan = planCall({ initiator }, ticket);
      if (plan.role === 'caller' && media.outgoing.getTracks().length === 0) {
        return fail(
          i18n._(msg`Your camera and microphone are not available, so there is no video call. You can still chat by text.`),
          false,
        );
      }
      call = new VideoCall(
        plan,
        media.outgoing,
        {
          onRemoteStream: (stream) => !cancelled && setRemote({ roomId, stream }),
          onConnected: () => !cancelled && dispatch(videoChatActions.callConnected(roomId)),
          onEnded: (reason, detail) => {
            if (cancelled) return;
            setRemote(null);
            // A hang-up is also announced by the chat server (partnerLeft), or followed by its
            // redial when the partner's call failed; only failures need words here. A partner who
            // never called has a reason on their own page that another attempt would not fix.
            if (reason !== 'hangup') fail(problemFor(reason, detail), reason !== 'unanswered');
          },
        },
        createPeer,
      );
      callRef.current = call;
      offTracks = media.onTrackChange((kind, track) => void call?.replaceTrack(kind, track));
      call.start(peerOptions(config, ticket.ticket, window.location));
    })();

    return () => {
      cancelled = true;
      offTracks?.();
      call?.end('hangup');
      callRef.current = null;
      setRemote(null);
    };
  }, [active, roomId, partnerId, initiator, attempt, config, media, mediaReady, dispatch, peerTicket]);

  // Tab closing: hang up at once so the partner's call ends now, not at the ICE timeout.
  useEffect(() => {
    const onPageHide = () => callRef.current?.end('hangup');
    window.addEventListener('pagehide', onPageHide);
    return () => window.removeEventListener('pagehide', onPageHide);
  }, []);

  return { remoteStream: remote && remote.roomId === roomId ? remote.stream : null, call: callRef };
}
