import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector, useCurrentUser } from '../../store/hooks';
import { toast } from '../../lib/toast';
import { useSocketStatus } from '../../realtime/socket';
import { useRtcConfigQuery } from './videoChatApi';
import { useChatBackgroundQuery, usePartnerActions, useStoredRoomDeps, useStrangerMedia } from '../../store/api';
import { ChatBackground } from '../../components/conversation/ChatBackground';
import { videoChatActions } from './videoChatSlice';
import { videoChatRoom } from './videoChatRoom';
import { connectionLine, inRoom as inRoomNow } from '../../realtime/roomState';
import { useStrangerRoom } from '../../realtime/strangerRoom';
import { Composer } from '../../components/conversation/Composer';
import { StrangerConversation } from '../../components/conversation/StrangerConversation';
import { PicturesConsent } from '../../components/conversation/PicturesConsent';
import { useChatPictures } from '../../components/conversation/chatPictures';
import { PartnerCard } from '../../components/conversation/PartnerCard';
import { PartnerActions } from '../../components/conversation/PartnerActions';
import { ReportAction } from '../../components/conversation/ReportAction';
import { useReportPartner } from './useReportPartner';
import type { RoomNotify } from '../../realtime/roomConnection';
import { useLocalMedia } from './useLocalMedia';
import { useVideoCall } from './useVideoCall';
import { markFirstRemoteFrame, markNudityBlurred } from './marks';
import { VideoSurface } from './components/VideoSurface';
import { DeviceSettings } from '../../components/media/DeviceSettings';
import { CallControls } from './components/CallControls';
import { MediaNoticeBox } from './components/MediaNoticeBox';
import { PartnerOverlay } from './components/PartnerOverlay';
import { NudityShield } from './nudityGuard/NudityShield';
import { useNudityGuard } from './nudityGuard/useNudityGuard';
import { SearchStatusNotice } from '../../components/conversation/SearchStatusNotice';
import { LanguageExchangeNote } from '../../components/conversation/LanguageExchangeNote';
import { widened } from '../../realtime/widenFilters';
import { searchPreferencesActions } from '../../realtime/searchPreferences';
import { focusRing } from '../../components/ui/buttonStyles';
import { FrameToggle } from '../../components/layout/FrameToggle';
import { Trans, useLingui } from '@lingui/react/macro';

/** /videochat: meet a stranger face to face, with the text chat beside the video. */
export default function VideoChatPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const vc = useAppSelector((s) => s.videoChat);
  const socketStatus = useSocketStatus();
  const notify = useCallback((n: Parameters<RoomNotify>[0]) => void toast({ ...n, variant: 'error' }), []);
  const local = useLocalMedia(vc.deviceId, vc.deviceAudioId, vc.backgroundVideoFilter, notify);
  const { data: config, isError: configFailed } = useRtcConfigQuery();
  const { data: background } = useChatBackgroundQuery();
  const inRoom = inRoomNow(vc);
  const { remoteStream } = useVideoCall({
    media: local.media,
    mediaReady: !local.opening,
    config,
    roomId: vc.roomId,
    partnerId: vc.receiver?.userId ?? null,
    initiator: vc.initiator,
    attempt: vc.callAttempt,
    active: inRoom,
  });
  const myId = useCurrentUser()?.userId ?? '';
  const [conversation, room] = useStrangerRoom(vc, useStoredRoomDeps(vc.conversationRoomId, 'direct', false));
  const report = useReportPartner(remoteStream, { messages: conversation.messages, myId });
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const remoteBox = useRef<HTMLDivElement>(null);
  const nudityGuardOn = useAppSelector((s) => s.searchPreferences.nudityGuard);
  const guard = useNudityGuard({ enabled: nudityGuardOn, video: remoteVideo, stream: remoteStream });

  useEffect(() => {
    const detach = dispatch(videoChatRoom.attach(notify));
    return () => {
      detach();
      // Leaving the page ends the search or the chat, so the partner is not left waiting.
      dispatch(videoChatRoom.leave());
      dispatch(videoChatActions.setPreviewVideoIsLoaded(false));
    };
  }, [dispatch, notify]);

  // The filter's own frame and mask rates, on the preview for DevTools and bench/video.ts.
  const previewBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const media = local.media;
    if (!media || vc.backgroundVideoFilter === 'none') return;
    const timer = setInterval(() => {
      const stats = media.filterStats();
      if (stats && previewBox.current) {
        previewBox.current.dataset.filterFps = String(stats.fps);
        previewBox.current.dataset.maskFps = String(stats.maskFps);
        previewBox.current.dataset.drawMs = String(stats.drawMs);
        previewBox.current.dataset.maskMs = String(stats.maskMs);
        previewBox.current.dataset.filterPath = stats.path;
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [local.media, vc.backgroundVideoFilter]);

  // The nudity guard's rates, on the partner's video box for DevTools and bench/safety.ts.
  const guardStats = guard.stats;
  useEffect(() => {
    if (!nudityGuardOn) return;
    const timer = setInterval(() => {
      const stats = guardStats();
      if (!stats || !remoteBox.current) return;
      remoteBox.current.dataset.nudityCps = String(stats.classificationsPerS);
      remoteBox.current.dataset.nudityLooks = String(stats.looks);
      remoteBox.current.dataset.nudityMs = String(stats.modelMs);
      remoteBox.current.dataset.nudityBackend = stats.backend ?? '';
    }, 1000);
    return () => clearInterval(timer);
  }, [nudityGuardOn, guardStats]);

  useEffect(() => local.media?.setMuted(muted), [local.media, muted]);
  useEffect(() => local.media?.setCameraOff(cameraOff), [local.media, cameraOff]);

  const roomId = vc.roomId;
  const onFirstRemoteFrame = useCallback(() => roomId && markFirstRemoteFrame(roomId), [roomId]);
  const notices = [local.videoNotice, local.audioNotice].filter((n) => n !== null);
  const hasCamera = !local.videoNotice && !local.opening;
  const hasMicrophone = !local.audioNotice && !local.opening;
  const showPartner = inRoom && remoteStream !== null;
  const shielded = showPartner && guard.status === 'shielded';
  const blurred = shielded || (showPartner && guard.status === 'suspect');
  useEffect(() => {
    if (blurred && roomId) markNudityBlurred(roomId);
  }, [blurred, roomId]);

  const [draft, setDraft] = useState('');
  const send = useCallback((text: string) => room?.send(text), [room]);
  const typing = useCallback((on: boolean) => room?.typing(on), [room]);
  // The partner's page follows the chat now (its room's people): a "typing" said before it did is said again.
  const partnerHere = conversation.people.some((p) => p.userId === vc.receiver?.userId && p.here);
  // The chat beside the video is the same 1:1 chat: pictures go there too while both allow them.
  const media = useStrangerMedia();
  const pictures = useChatPictures({ state: conversation, room: inRoom ? room : null, myId, partnerId: vc.receiver?.userId ?? null });

  // Offline, the start says so itself (with Reconnect once the retries gave up).
  const start = () => dispatch(videoChatRoom.startSearch(notify));
  const filters = useAppSelector((s) => s.searchPreferences.chatFilters);
  const widen = () => {
    dispatch(searchPreferencesActions.setChatFilters(widened(filters)));
    dispatch(videoChatRoom.startSearch(notify));
  };
  // From the match to the partner's first frame, the partner's card says what is happening.
  const connectingTo = inRoom && !showPartner && !vc.callProblem && vc.receiver ? vc.receiver : null;

  const line = connectionLine(vc, socketStatus);
  const partner = vc.receiver?.username;
  let status: string | null = null;
  if (line === 'reconnecting') status = t`Connection lost. Reconnecting… Your chat is kept for a few seconds.`;
  else if (line === 'partnerAway') status = t`Stranger lost their connection. Waiting a few seconds for them to come back…`;
  else if (line === 'connecting') status = t`Connecting to Parley…`;
  else if (line === 'offline' && vc.phase === 'searching') status = t`You are offline. The search goes on once Parley reconnects.`;
  else if (vc.phase === 'searching')
    // Pressing Next also comes back from the server as a requeue: only the partner's leaving is news.
    status = vc.movedOn
      ? t`You moved on. Finding someone new…`
      : vc.isRequeuing
        ? t`Your partner left. Looking for someone new…`
        : t`Looking for someone to meet…`;
  else if (vc.callRedialing && inRoom)
    status = partner ? t`The video was interrupted. Connecting to ${partner} again…` : t`The video was interrupted. Connecting again…`;
  else if (vc.phase === 'ended' && vc.partnerReported)
    status = partner
      ? t`You reported ${partner}. This chat has ended. Press Next to meet someone new.`
      : t`You reported your partner. This chat has ended. Press Next to meet someone new.`;
  else if (vc.phase === 'ended' && vc.userIsDisconnected) status = t`You are disconnected. Check your connection, then press Next.`;
  else if (vc.phase === 'ended' && vc.isPeerDisconnected) status = t`Stranger has disconnected`;
  else if (vc.phase === 'idle') status = t`Check your camera, then press Start to meet someone.`;

  return (
    <main
      id="main"
      className="keep-palette grid h-frame grid-cols-1 grid-rows-[minmax(0,1fr)_auto] bg-slate-950 text-white md:grid-cols-[minmax(0,1fr)_24rem]"
    >
      <h1 className="sr-only">
        <Trans>Video chat</Trans>
      </h1>
      <section aria-label={t`Video`} className="relative col-start-1 row-start-1 min-h-0">
        <div ref={remoteBox} data-testid="remote-box" data-nudity-guard={guard.status} className="relative h-full overflow-hidden">
          <VideoSurface
            stream={showPartner ? remoteStream : null}
            muted={false}
            label={partner ? t`${partner}'s video` : t`Partner's video`}
            testId="remote-video"
            className={`absolute inset-0 h-full w-full ${showPartner ? '' : 'hidden'} ${blurred ? 'scale-110 blur-3xl' : ''}`}
            onFirstFrame={onFirstRemoteFrame}
            videoRef={remoteVideo}
          />
          {shielded && vc.receiver && <NudityShield partnerName={vc.receiver.username} onReveal={guard.reveal} onReport={report} />}
          <div
            ref={previewBox}
            data-testid="local-preview"
            className={
              showPartner
                ? 'absolute end-3 top-3 z-10 aspect-[3/4] w-24 overflow-hidden rounded-xl border border-slate-600 shadow-lg sm:w-32 md:aspect-video md:w-56'
                : 'absolute inset-0'
            }
          >
            <VideoSurface
              stream={local.stream}
              muted
              mirrored
              label={t`Your camera preview`}
              testId="local-video"
              className="h-full w-full"
              onPlaying={(p) => dispatch(videoChatActions.setPreviewVideoIsLoaded(p))}
            />
            {!vc.previewVideoIsLoaded && (
              <div
                className="absolute inset-0 flex items-center justify-center bg-slate-900 p-4 text-center text-slate-200"
                data-testid="preview-placeholder"
              >
                {local.opening ? t`Starting your camera…` : local.videoNotice ? t`Your camera is off` : t`Waiting for your camera…`}
              </div>
            )}
            {cameraOff && vc.previewVideoIsLoaded && (
              <div className="absolute inset-0 flex items-center justify-center bg-slate-900/90 text-slate-200">
                <Trans>Camera off</Trans>
              </div>
            )}
          </div>

          {vc.receiver && inRoom && <PartnerOverlay receiver={vc.receiver} connecting={connectingTo !== null && !vc.callRedialing} />}
          {/* On a phone the chat panel is closed by default: Report stays on the video itself. */}
          {vc.receiver && inRoom && (
            <div className="absolute bottom-3 start-3 z-20 rounded-lg bg-slate-900/85 md:hidden">
              <ReportAction partnerName={vc.receiver.username} onSend={report} tone="dark" />
            </div>
          )}

          <div className="pointer-events-none absolute inset-x-0 top-0 z-20 flex flex-col items-center gap-2 p-3">
            {/* Full screen: one button brings back the app's navigation; outside a call a way home as well (an installed app has no back button). */}
            <div className="pointer-events-none flex items-center gap-2 self-start">
              <FrameToggle tone="dark" />
              {!inRoom && (
                <Link
                  to="/dashboard"
                  className={`pointer-events-auto self-start rounded-full bg-slate-900/85 px-3 py-2 text-sm font-medium text-white hover:bg-slate-800 ${focusRing}`}
                >
                  {/* An arrow that points back: the other way in a right-to-left language. */}
                  <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
                    ←
                  </span>{' '}
                  <Trans>Dashboard</Trans>
                </Link>
              )}
            </div>
            {status && (
              <p
                role="status"
                className="pointer-events-auto rounded-full bg-slate-900/85 px-4 py-2 text-center text-sm"
                data-testid="video-status"
              >
                {status}
              </p>
            )}
            {vc.callProblem && !vc.callRedialing && inRoom && (
              <p role="alert" className="pointer-events-auto max-w-md rounded-xl bg-red-950/90 px-4 py-2 text-center text-sm">
                {vc.callProblem}
              </p>
            )}
            {guard.status === 'unavailable' && showPartner && (
              <p role="status" className="pointer-events-auto max-w-md rounded-xl bg-slate-900/85 px-4 py-2 text-center text-sm">
                <Trans>The nudity guard could not start on this device, so your partner's video is not checked.</Trans>
              </p>
            )}
            {configFailed && (
              <p role="alert" className="pointer-events-auto max-w-md rounded-xl bg-red-950/90 px-4 py-2 text-center text-sm">
                <Trans>Video settings could not be loaded. Reload the page to try again.</Trans>
              </p>
            )}
            <div className="pointer-events-auto w-full max-w-md">
              <MediaNoticeBox notices={notices} onRetry={local.retry} />
            </div>
            {vc.phase === 'searching' && (
              <div className="pointer-events-auto flex w-full justify-center">
                <SearchStatusNotice
                  status={vc.searchStatus}
                  filters={filters}
                  onWiden={widen}
                  onMeetAgain={
                    vc.recentPartners.length > 0
                      ? () => dispatch(videoChatRoom.startSearch(notify, { keepConversation: true, meetAgain: true }))
                      : undefined
                  }
                  meetAgainAsked={vc.meetAgainAsked}
                  tone="dark"
                />
              </div>
            )}
          </div>

          {settingsOpen && (
            <div
              id="video-settings"
              className="absolute inset-x-3 bottom-3 z-30 max-w-md rounded-2xl bg-slate-900/95 shadow-xl md:start-3 md:end-auto md:w-96"
            >
              <DeviceSettings
                devices={local.devices}
                deviceId={vc.deviceId}
                deviceAudioId={vc.deviceAudioId}
                filter={vc.backgroundVideoFilter}
                onCamera={(id) => dispatch(videoChatActions.setDeviceId(id))}
                onMicrophone={(id) => dispatch(videoChatActions.setDeviceAudioId(id))}
                onFilter={(f) => dispatch(videoChatActions.setBackgroundVideoFilter(f))}
              />
            </div>
          )}
        </div>
      </section>
      <div className="col-start-1 row-start-2">
        <CallControls
          phase={vc.phase}
          muted={muted}
          cameraOff={cameraOff}
          hasMicrophone={hasMicrophone}
          hasCamera={hasCamera}
          onStart={start}
          onNext={() => dispatch(videoChatRoom.next(notify))}
          onStop={() => dispatch(videoChatRoom.leave())}
          onToggleMute={() => setMuted((m) => !m)}
          onToggleCamera={() => setCameraOff((c) => !c)}
          onToggleSettings={() => setSettingsOpen((o) => !o)}
          onToggleChat={() => setChatOpen((o) => !o)}
          settingsOpen={settingsOpen}
          chatOpen={chatOpen}
        />
      </div>
      <aside
        id="video-chat-panel"
        aria-label={t`Chat`}
        className={`${chatOpen ? 'flex' : 'hidden'} z-40 col-start-1 row-start-1 h-[60%] min-h-0 flex-col self-end rounded-t-2xl bg-slate-900 md:col-start-2 md:row-span-2 md:flex md:h-full md:self-stretch md:rounded-none md:border-s md:border-slate-700`}
      >
        {vc.receiver && vc.phase !== 'idle' && vc.phase !== 'searching' && !vc.partnerReported ? (
          <>
            <PartnerCard
              receiver={vc.receiver}
              noCommonTopic={vc.noCommonTopic}
              variant="bar"
              action={<ReportAction partnerName={vc.receiver.username} onSend={report} tone="dark" />}
            />
            <LanguageExchangeNote exchange={vc.exchange} receiver={vc.receiver} tone="dark" />
            <div className="border-b border-slate-700 px-3 pt-2">
              <PartnerActions key={vc.receiver.userId} username={vc.receiver.username} useActions={usePartnerActions} tone="dark" />
            </div>
          </>
        ) : (
          <p className="border-b border-slate-700 p-3 text-sm text-slate-300">
            <Trans>Your partner will appear here.</Trans>
          </p>
        )}
        <div className="flex min-h-0 flex-1 flex-col">
          <ChatBackground src={background ?? null} veil="dark">
            <StrangerConversation
              state={conversation}
              room={inRoom ? room : null}
              myId={myId}
              partnerId={vc.receiver?.userId ?? null}
              partnerName={partner ?? t`Stranger`}
              look="panel"
              listLabel={t`Messages`}
              media={media}
              composer={
                <>
                  {inRoom && pictures.consent && (
                    <PicturesConsent
                      key={vc.roomId}
                      mine={pictures.consent.mine}
                      theirs={pictures.consent.theirs}
                      partnerName={partner ?? t`Stranger`}
                      onChange={pictures.consent.setAllowed}
                      tone="dark"
                    />
                  )}
                  <Composer
                    variant="panel"
                    draft={draft}
                    onDraftChange={setDraft}
                    onSend={send}
                    onTyping={typing}
                    disabled={!inRoom}
                    placeholder={inRoom ? t`Say hello…` : t`Chat opens when you meet someone`}
                    // The chat's room keeps a message written while either side is away and sends it once back.
                    held
                    bothHere={!vc.reconnecting && !vc.partnerAway && partnerHere}
                    attach={pictures.attach}
                  />
                </>
              }
            />
          </ChatBackground>
        </div>
      </aside>
    </main>
  );
}
