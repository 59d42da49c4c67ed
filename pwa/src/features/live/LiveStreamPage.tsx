import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { liveEvents, type LiveStream } from '@parley/contract/live';
import type { RoomMessage } from '@parley/contract/rooms';
import { chatEvents, socketErrorSchema } from '@parley/contract/matchmaking';
import { useCurrentUser } from '../../store/hooks';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { Avatar } from '../../components/Avatar';
import { httpStatus } from '../../lib/apiError';
import { emitSocket, onSocketEvent, useSocketStatus } from '../../realtime/socket';
import { useEndStreamMutation, useLiveStreamQuery } from './liveApi';
import { currentBroadcast, type Broadcast } from './broadcast';
import { LiveRefusal, watch, type Watching } from './liveMedia';
import { useLiveChat } from './useLiveChat';
import { LiveChatPanel } from './LiveChatPanel';
import { ReportAction } from '../../components/conversation/ReportAction';
import { useReportFromStream } from './useReportFromStream';
import type { ReportChoice } from '../../realtime/reportEvidence';
import { timeLive } from './timeLive';
import { FollowButton } from '../../components/people/FollowButton';
import { useFollowStateQuery, useSetFollowMutation } from '../../store/api';
import { GiftBar } from './GiftBar';
import { LiveModerationPanel } from './LiveModerationPanel';
import { StreamSummary } from './StreamSummary';
import { useFullscreen, usePictureInPicture } from './fullscreen';
import { liveRefusal } from './liveRefusals';
import { categoryName } from '../../lib/categoryNames';
import { durationInWords } from '../../lib/i18n/duration';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const button = `min-h-11 rounded-lg px-4 font-semibold ${focusRing}`;

/** The viewer's choice of the chat alone, kept on this device (a preference, nothing secret). */
const CHAT_ONLY_KEY = 'parley.live.chatOnly';
function readChatOnly(): boolean {
  try {
    return localStorage.getItem(CHAT_ONLY_KEY) === '1';
  } catch {
    return false;
  }
}
function rememberChatOnly(on: boolean) {
  try {
    if (on) localStorage.setItem(CHAT_ONLY_KEY, '1');
    else localStorage.removeItem(CHAT_ONLY_KEY);
  } catch {
    // Storage refused (a private window): the choice lasts as long as the page.
  }
}

/** `/livestream/:roomId`: the broadcaster's console or a viewer's player, with the chat; ended and unknown streams say so. */
export default function LiveStreamPage() {
  const { t } = useLingui();
  const { roomId = '' } = useParams();
  const query = useLiveStreamQuery(roomId, { refetchOnMountOrArgChange: true });
  const me = useCurrentUser();
  const [endedAt, setEndedAt] = useState<number | null>(null);
  const [viewers, setViewers] = useState<number | null>(null);

  useEffect(() => {
    const offs = [
      onSocketEvent(liveEvents.ended, (e: { roomId: string; endedAt: number }) => e.roomId === roomId && setEndedAt(e.endedAt)),
      onSocketEvent(liveEvents.viewers, (e: { roomId: string; viewers: number }) => e.roomId === roomId && setViewers(e.viewers)),
    ];
    return () => offs.forEach((off) => off());
  }, [roomId]);

  if (query.isLoading)
    return (
      <Shell title={t`Loading stream`}>
        <Trans>Loading the stream…</Trans>
      </Shell>
    );
  if (query.isError) {
    if (httpStatus(query.error) === 404) return <NotFound />;
    return (
      <Shell title={t`Live stream`}>
        <Trans>We could not load this stream. Check your connection and reload the page.</Trans>
      </Shell>
    );
  }
  const stream = query.data!;
  const ended = stream.endedAt ?? endedAt;
  if (ended) return <Ended stream={stream} endedAt={ended} mine={me?.userId === stream.broadcaster.userId} />;
  const count = viewers ?? stream.viewers;
  return me?.userId === stream.broadcaster.userId ? (
    <BroadcasterView stream={stream} viewers={count} me={me.userId} />
  ) : (
    <ViewerView stream={stream} viewers={count} me={me?.userId ?? ''} onJoined={setViewers} />
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useLingui();
  return (
    <main id="main" className="min-h-frame bg-slate-50 px-4 py-10 text-center text-slate-800">
      <DocumentTitle title={t`${title} · Parley`} />
      <h1 className="sr-only">{title}</h1>
      {children}
    </main>
  );
}

function NotFound() {
  const { t } = useLingui();
  return (
    <Shell title={t`Stream not found`}>
      <p className="text-2xl font-bold text-slate-900">
        <Trans>We couldn&apos;t find that stream</Trans>
      </p>
      <p className="mt-2">
        <Trans>The link may be wrong, or the stream ended a long time ago.</Trans>
      </p>
      <Link to="/livestream" className={`mt-6 inline-block rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white ${focusRing}`}>
        <Trans>See who is live</Trans>
      </Link>
    </Shell>
  );
}

function Ended({ stream, endedAt, mine }: { stream: LiveStream; endedAt: number; mine: boolean }) {
  const { i18n, t } = useLingui();
  const name = stream.broadcaster.username;
  const title = stream.title;
  const ranFor = durationInWords(endedAt - stream.startedAt, i18n);
  return (
    <Shell title={t`Stream ended`}>
      <p className="text-2xl font-bold text-slate-900" data-testid="stream-ended">
        <Trans>This stream has ended</Trans>
      </p>
      <p className="mt-2">
        <Trans>
          {name}&apos;s “{title}” ran for {ranFor}.
        </Trans>
      </p>
      {mine && <StreamSummary roomId={stream.roomId} />}
      <Link to="/livestream" className={`mt-6 inline-block rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white ${focusRing}`}>
        <Trans>See who is live</Trans>
      </Link>
    </Shell>
  );
}

function Header({ stream, viewers, action }: { stream: LiveStream; viewers: number; action?: React.ReactNode }) {
  const { i18n } = useLingui();
  const forHowLong = timeLive(stream.startedAt, i18n);
  return (
    <div className="flex items-center gap-3">
      <Avatar src={stream.broadcaster.avatar} name={stream.broadcaster.username} size={40} />
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-lg font-bold text-white">{stream.title}</h1>
        <p className="truncate text-sm text-slate-300">
          {stream.broadcaster.username} · {categoryName(stream.category)} · <Trans>live {forHowLong}</Trans>
        </p>
      </div>
      <p className="rounded bg-red-700 px-2 py-1 text-sm font-semibold text-white" aria-live="polite">
        <Trans>
          <span data-testid="viewer-count">{viewers}</span> watching
        </Trans>
      </p>
      {action && <div className="shrink-0 rounded-lg bg-slate-950">{action}</div>}
    </div>
  );
}

function BroadcasterView({ stream, viewers, me }: { stream: LiveStream; viewers: number; me: string }) {
  const { t } = useLingui();
  const [broadcast] = useState<Broadcast | null>(() => currentBroadcast(stream.roomId));
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const [endStream, ending] = useEndStreamMutation();
  const video = useRef<HTMLVideoElement>(null);
  // The broadcaster's chat starts with the stream; what follows arrives as events.
  const chat = useLiveChat(stream.roomId, 'owner');

  useEffect(() => {
    if (video.current && broadcast) {
      video.current.srcObject = broadcast.media.outgoing;
      void video.current.play().catch(() => undefined);
    }
  }, [broadcast]);
  // Leaving the page ends the stream; a dropped connection alone leaves the server a grace to wait.
  useEffect(
    () => () => {
      if (!broadcast) return;
      broadcast.stop();
      emitSocket(liveEvents.end, { roomId: broadcast.roomId });
    },
    [broadcast],
  );

  const end = async () => {
    await endStream(stream.roomId);
    broadcast?.stop();
  };

  return (
    <main id="main" className="keep-palette min-h-frame bg-slate-950 p-3 sm:p-4">
      <DocumentTitle title={t`Live: ${stream.title} · Parley`} />
      <div className="mx-auto grid max-w-6xl grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid grid-cols-1 content-start gap-3">
          <Header stream={stream} viewers={viewers} />
          {broadcast ? (
            <video
              ref={video}
              muted
              playsInline
              className="aspect-video w-full rounded-xl bg-black object-cover"
              aria-label={t`What your viewers see`}
            />
          ) : (
            <p role="alert" className="rounded-xl bg-amber-100 p-4 text-amber-950">
              <Trans>Your camera is no longer connected to this stream (the page was reloaded). End it and go live again.</Trans>
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              aria-pressed={muted}
              className={`${button} bg-slate-700 text-white`}
              disabled={!broadcast}
              onClick={() => (broadcast?.media.setMuted(!muted), setMuted(!muted))}
            >
              {muted ? t`Unmute` : t`Mute`}
            </button>
            <button
              type="button"
              aria-pressed={cameraOff}
              className={`${button} bg-slate-700 text-white`}
              disabled={!broadcast}
              onClick={() => (broadcast?.media.setCameraOff(!cameraOff), setCameraOff(!cameraOff))}
            >
              {cameraOff ? t`Camera on` : t`Camera off`}
            </button>
            <button
              type="button"
              className={`${button} bg-red-700 text-white hover:bg-red-800`}
              disabled={ending.isLoading}
              onClick={() => void end()}
            >
              <Trans>End stream</Trans>
            </button>
          </div>
          <LiveModerationPanel roomId={stream.roomId} moderate={chat.moderate} recordLink />
        </div>
        <LiveChatPanel chat={chat} me={me} broadcasterId={stream.broadcaster.userId} />
      </div>
    </main>
  );
}

function ViewerView({
  stream,
  viewers,
  me,
  onJoined,
}: {
  stream: LiveStream;
  viewers: number;
  me: string;
  onJoined: (viewers: number) => void;
}) {
  const { t } = useLingui();
  const [watching, setWatching] = useState<Watching | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [needsTap, setNeedsTap] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // Video off, chat on: a phone on a tight data plan still takes part (remembered on this device).
  const [chatOnly, setChatOnly] = useState(() => readChatOnly());
  const video = useRef<HTMLVideoElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const full = useFullscreen(stage, video);
  const pip = usePictureInPicture(video, Boolean(watching?.stream) && !chatOnly);
  const socket = useSocketStatus();
  const chat = useLiveChat(stream.roomId, watching?.joined ?? null);
  const report = useReportFromStream(stream.roomId);
  const reportMessage = useCallback((m: RoomMessage, choice: ReportChoice) => report(m.senderId, choice, m.id), [report]);

  useEffect(() => {
    if (socket !== 'connected') return;
    let cancelled = false;
    let mine: Watching | null = null;
    watch(stream.roomId, !chatOnly).then(
      (w) => {
        if (cancelled) return w.pc?.close();
        mine = w;
        // The count the server gave on joining includes us; the page's first one did not.
        onJoined(w.joined.viewers);
        setProblem(null);
        setWatching(w);
      },
      (err: unknown) =>
        !cancelled &&
        setProblem(err instanceof LiveRefusal ? liveRefusal(err.code, err.message) : i18n._(msg`We could not start the video. Try again.`)),
    );
    const offBan = onSocketEvent(liveEvents.dropped, (e: { roomId: string }) => {
      if (e.roomId !== stream.roomId) return;
      mine?.pc?.close();
      setWatching(null);
      setProblem(i18n._(msg`The broadcaster removed you from this stream.`));
    });
    // The server withdrew an offer whose connection never came up: say so, and offer to try again.
    const offExpired = onSocketEvent(chatEvents.error, (payload: unknown) => {
      const e = socketErrorSchema.safeParse(payload).data;
      if (e?.event !== liveEvents.watch || e.code !== 'offer_expired') return;
      mine?.pc?.close();
      setWatching(null);
      setProblem(liveRefusal(e.code, e.message));
    });
    return () => {
      cancelled = true;
      offBan();
      offExpired();
      mine?.pc?.close();
      // Leaving a stream that is still live frees the server's connection for it at once.
      emitSocket(liveEvents.leave, { roomId: stream.roomId });
    };
  }, [stream.roomId, socket, attempt, onJoined, chatOnly]);

  useEffect(() => {
    const v = video.current;
    if (!v || !watching) return;
    v.srcObject = watching.stream;
    if (!watching.stream) return;
    v.requestVideoFrameCallback?.(() => performance.mark('live:firstFrame'));
    // Browsers let a page play sound only after a tap: start muted, offer to unmute.
    v.muted = false;
    v.play().catch(() => {
      v.muted = true;
      setNeedsTap(true);
      void v.play().catch(() => undefined);
    });
  }, [watching]);

  const unmute = () => {
    const v = video.current;
    if (!v) return;
    v.muted = false;
    void v.play().catch(() => undefined);
    setNeedsTap(false);
  };

  return (
    <main id="main" className="keep-palette min-h-frame bg-slate-950 p-3 sm:p-4">
      <DocumentTitle title={t`${stream.title} · Parley`} />
      <div className="mx-auto grid max-w-6xl grid-cols-1 gap-3 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="grid grid-cols-1 content-start gap-3">
          <Header
            stream={stream}
            viewers={viewers}
            action={
              <ReportAction
                tone="dark"
                partnerName={stream.broadcaster.username}
                subject={t`this stream`}
                evidence={t`The stream's latest chat messages go with the report, so our team can see what happened.`}
                onSend={(choice) => report(stream.broadcaster.userId, choice)}
              />
            }
          />
          <div ref={stage} className="relative rounded-xl bg-black">
            <video
              ref={video}
              playsInline
              className={`w-full bg-black object-contain ${full.on ? 'h-full' : 'aspect-video rounded-xl'}`}
              aria-label={t`${stream.broadcaster.username}'s stream`}
              data-testid="live-video"
            />
            {needsTap && !chatOnly && (
              <button type="button" onClick={unmute} className={`${button} absolute bottom-3 start-3 bg-white text-slate-900`}>
                <Trans>Tap to unmute</Trans>
              </button>
            )}
            {chatOnly && (
              <p className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-slate-200" data-testid="live-video-off">
                <Trans>Video is off to save data. The chat goes on.</Trans>
              </p>
            )}
            {!chatOnly && (
              <div className="absolute end-3 top-3 flex gap-2">
                {pip.available && (
                  <button type="button" aria-pressed={pip.on} onClick={pip.toggle} className={`${button} bg-slate-900/80 text-white`}>
                    {pip.on ? t`Leave picture-in-picture` : t`Picture-in-picture`}
                  </button>
                )}
                <button type="button" aria-pressed={full.on} onClick={full.toggle} className={`${button} bg-slate-900/80 text-white`}>
                  {full.on ? t`Exit full screen` : t`Full screen`}
                </button>
              </div>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <FollowBroadcaster userId={stream.broadcaster.userId} name={stream.broadcaster.username} />
            <button
              type="button"
              aria-pressed={chatOnly}
              onClick={() => {
                setNeedsTap(false);
                setChatOnly(!chatOnly);
                rememberChatOnly(!chatOnly);
              }}
              className={`${button} bg-slate-800 text-white`}
            >
              {chatOnly ? t`Turn video on` : t`Chat only (video off)`}
            </button>
            {watching && <GiftBar roomId={stream.roomId} broadcaster={stream.broadcaster.username} />}
          </div>
          {problem && (
            <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl bg-amber-100 p-3 text-amber-950">
              <span>{problem}</span>
              <button type="button" className={`${button} bg-amber-900 text-white`} onClick={() => setAttempt((n) => n + 1)}>
                <Trans>Try again</Trans>
              </button>
            </div>
          )}
          {chat.moderators.includes(me) && <LiveModerationPanel roomId={stream.roomId} moderate={chat.moderate} recordLink={false} />}
        </div>
        <LiveChatPanel chat={chat} me={me} broadcasterId={stream.broadcaster.userId} onReport={reportMessage} />
      </div>
    </main>
  );
}

function FollowBroadcaster({ userId, name }: { userId: string; name: string }) {
  const { data } = useFollowStateQuery(userId);
  const [setFollow, saving] = useSetFollowMutation();
  return <FollowButton name={name} state={data} busy={saving.isLoading} setFollow={(follow) => setFollow({ userId, follow })} />;
}
