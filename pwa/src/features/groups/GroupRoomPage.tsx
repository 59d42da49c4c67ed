import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { roomEvents as wire, type RoomMessage } from '@parley/contract/rooms';
import type { GroupDetail, Moderation } from '@parley/contract/groups';
import { useAppDispatch, useCurrentUser } from '../../store/hooks';
import {
  useBlockedPeople,
  useChatBackgroundQuery,
  useFileReportMutation,
  useLinkPreviewLoader,
  useStoredRoomDeps,
  useConversationMedia,
} from '../../store/api';
import { useMessageTarget } from '../../components/conversation/useMessageTarget';
import { ChatBackground } from '../../components/conversation/ChatBackground';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { ConversationView } from '../../components/conversation/ConversationView';
import type { ModeratorAction } from '../../components/conversation/MessageRow';
import { messageModeration, say, useModerate } from '../../components/conversation/moderation';
import { useViewportLayout } from '../../components/layout/useViewportLayout';
import { describeApiError, errorBody } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { onSocketEvent } from '../../realtime/socket';
import { heldRoomReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { useStoredRoom, useStoredThread } from '../../realtime/storedRoom';
import { ThreadPanel } from '../../components/conversation/ThreadPanel';
import { useMutedLine } from '../../components/conversation/useMutedLine';
import { groupChatActions } from './groupChatSlice';
import { groupChatApi, useGroupQuery, useJoinGroupMutation, useLeaveGroupMutation, useModerateMutation } from './groupChatApi';
import { ModerationPanel } from './ModerationPanel';
import { PageHeader } from '../../components/ui/PageHeader';
import { SkeletonRows } from '../../components/ui/Skeleton';
import { PeoplePanel } from './PeoplePanel';
import { RoomProblem } from './RoomProblem';
import { problemTitle, refusalMessage, removedMessage } from './roomProblems';
import { categoryName } from '../../lib/categoryNames';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ask } from '../../components/ui/askDialog';

const secondary = `rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`;

/** /groupchat/:roomId: a room's page: join it, talk in it, see who is here, moderate it. */
export default function GroupRoomPage() {
  const { t } = useLingui();
  const { roomId = '' } = useParams();
  const [params] = useSearchParams();
  const invite = params.get('invite') ?? undefined;
  const { data: room, error, isLoading, refetch } = useGroupQuery({ roomId, invite });
  const [join, joining] = useJoinGroupMutation();
  // Leaving refetches the room, which then shows its join page; the person who just left is told so first.
  const [leftRoom, setLeftRoom] = useState<string | null>(null);

  if (leftRoom === roomId) return <RoomProblem title={problemTitle('left')} message={t`You left the room.`} />;

  // The page's frame shows at once (landmark, heading, way back); only the room's content waits.
  if (isLoading)
    return (
      <main id="main" className="flex h-frame flex-col bg-slate-50">
        <PageHeader back="/groupchat" backLabel={t`Rooms`} title={t`Room`} />
        <div className="grid gap-3 p-4">
          <p role="status" className="text-slate-700">
            <Trans>Loading the room…</Trans>
          </p>
          <SkeletonRows rows={4} />
        </div>
      </main>
    );
  if (error || !room) {
    const code = errorBody(error).code;
    return <RoomProblem title={problemTitle(code)} message={refusalMessage(code, describeApiError(error, t`This room does not exist.`))} />;
  }
  if (room.role === null)
    return (
      <main id="main" className="mx-auto grid min-h-frame max-w-lg content-center gap-4 bg-slate-50 p-6 text-center">
        <DocumentTitle title={t`${room.name} · Parley`} />
        <h1 className="text-2xl font-bold text-slate-900">{room.name}</h1>
        <p className="text-slate-700">{room.description}</p>
        <p className="text-sm text-slate-600">
          {categoryName(room.category)} · {room.official ? t`Official room` : t`by ${room.roomOwner}`} ·{' '}
          {room.peopleInRoom === 0 ? t`Nobody here now` : t`${plural(room.peopleInRoom, { one: '# here now', other: '# here now' })}`} ·{' '}
          {t`${plural(room.members, { one: '# member', other: '# members' })}`}
        </p>
        <button
          type="button"
          disabled={joining.isLoading}
          className={primaryButton}
          onClick={() =>
            join({ roomId, invite })
              .unwrap()
              .then(() => refetch())
              .catch((err: unknown) =>
                toast({
                  title: t`Could not join`,
                  description: refusalMessage(errorBody(err).code, describeApiError(err, t`Please try again.`)),
                  variant: 'error',
                }),
              )
          }
        >
          <Trans>Join room</Trans>
        </button>
      </main>
    );
  return <RoomConversation room={room} refetch={refetch} onLeft={() => setLeftRoom(room.roomId)} />;
}

function RoomConversation({ room, refetch, onLeft }: { room: GroupDetail; refetch: () => unknown; onLeft: () => void }) {
  const { t } = useLingui();
  const moderator = room.role === 'owner' || room.role === 'moderator';
  const me = useCurrentUser();
  const myId = me?.userId ?? '';
  const dispatch = useAppDispatch();
  const { isMobile } = useViewportLayout();
  const [panel, setPanel] = useState<'people' | 'settings' | null>(null);
  const roomDeps = useStoredRoomDeps(room.roomId, 'group');
  const [roomState, conn] = useStoredRoom(roomDeps);
  // The thread open beside the room (`?thread=<root id>`): a link (a notification, a search) opens it too.
  const [params, setParams] = useSearchParams();
  const rawThread = params.get('thread');
  const threadId = rawThread !== null && /^[1-9]\d{0,14}$/.test(rawThread) ? Number(rawThread) : null;
  const [threadState, threadConn] = useStoredThread(conn, roomDeps, threadId);
  const openThread = useCallback(
    (m: RoomMessage) =>
      setParams((p) => {
        const next = new URLSearchParams(p);
        next.set('thread', String(m.id));
        return next;
      }),
    [setParams],
  );
  const closeThread = useCallback(() => {
    const rootId = threadId;
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.delete('thread');
      return next;
    });
    // Back where the reader left the room: the thread's summary under its root.
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(`[data-message-id="${rootId}"] [data-thread-button], [data-message-id="${rootId}"] button`)
        ?.focus(),
    );
  }, [setParams, threadId]);
  const threads = useMemo(() => ({ open: openThread, unread: roomState.threadUnread }), [openThread, roomState.threadUnread]);
  const media = useConversationMedia();
  // Someone this user blocked says nothing here any more, including what is already on screen.
  const blocked = useBlockedPeople();
  const state = useMemo(
    () => (blocked.size === 0 ? roomState : { ...roomState, messages: roomState.messages.filter((m) => !blocked.has(m.senderId)) }),
    [roomState, blocked],
  );
  const muted = useMutedLine(state.mutedUntil);
  const writeBlocked = muted ?? (room.readOnly && !moderator ? t`This room is read-only for now.` : null);
  const linkPreview = useLinkPreviewLoader(room.roomId);
  const target = useMessageTarget(conn, roomState.phase === 'open');
  const { data: background } = useChatBackgroundQuery();
  const [moderate] = useModerateMutation();
  const moderateSocket = useModerate(room.roomId);
  // Done over the socket: the room's page and its moderation record are read again, as after the settings panel's.
  const moderateHere = useCallback(
    (m: Moderation) =>
      moderateSocket(m).then((problem) => {
        if (problem === null) dispatch(groupChatApi.util.invalidateTags([{ type: 'Group', id: room.roomId }]));
        return problem;
      }),
    [moderateSocket, dispatch, room.roomId],
  );
  const [leave] = useLeaveGroupMutation();

  useEffect(() => {
    dispatch(groupChatActions.setRoom({ roomId: room.roomId, roomOwner: room.roomOwner, roomCategory: room.category }));
    return () => void dispatch(groupChatActions.leaveRoom());
  }, [dispatch, room.roomId, room.roomOwner, room.category]);
  useEffect(() => {
    dispatch(groupChatActions.setPeopleInRoom(state.people.map((p) => p.username)));
  }, [dispatch, state.people]);
  // Slow mode, read-only or a new owner: the room's page reads its settings again.
  useEffect(
    () => onSocketEvent(wire.settings, (s: { roomId?: unknown }) => s?.roomId === room.roomId && void refetch()),
    [room.roomId, refetch],
  );

  const act = useCallback(
    (m: Moderation) =>
      void moderate({ roomId: room.roomId, action: m })
        .unwrap()
        .catch((err: unknown) => toast({ title: t`Not done`, description: describeApiError(err, t`Please try again.`), variant: 'error' })),
    [moderate, room.roomId, t],
  );
  // The owner moderates everyone; a moderator, the members.
  const canModerate = useCallback(
    (senderId: string) =>
      senderId !== myId &&
      (room.role === 'owner' ||
        (room.role === 'moderator' && (state.people.find((p) => p.userId === senderId)?.role ?? 'member') === 'member')),
    [myId, room.role, state.people],
  );
  const moderation = useCallback(
    (m: RoomMessage): ModeratorAction[] => {
      if (!canModerate(m.senderId)) return [];
      // Appointing is in the people list.
      return messageModeration(m, (a) => say(moderateHere(a)), { kick: true });
    },
    [moderateHere, canModerate],
  );
  const [fileReport] = useFileReportMutation();
  const onReport = useCallback(
    async (m: { id: number; senderId: string }, choice: ReportChoice) => {
      reportOutcome(choice, await fileReport(heldRoomReport('group', room.roomId, m.senderId, choice, m.id)));
    },
    [fileReport, room.roomId],
  );
  const reportPerson = useCallback(
    async (p: { userId: string }, choice: ReportChoice) => {
      reportOutcome(choice, await fileReport(heldRoomReport('group', room.roomId, p.userId, choice)));
    },
    [fileReport, room.roomId],
  );

  const thread = threadConn && (
    <ThreadPanel
      key={threadId}
      roomName={room.name}
      state={threadState}
      thread={threadConn}
      myId={myId}
      overlay={isMobile === true}
      onClose={closeThread}
      blocked={blocked}
      writeBlocked={writeBlocked}
      canModerate={canModerate}
      moderation={moderation}
      onReport={onReport}
      linkPreview={linkPreview}
      media={media}
    />
  );

  if (state.phase === 'removed' && state.removed)
    return <RoomProblem title={problemTitle(state.removed.reason)} message={removedMessage(state.removed)} />;
  if (state.phase === 'refused' && state.refusal)
    return <RoomProblem title={problemTitle(state.refusal.code)} message={refusalMessage(state.refusal.code, state.refusal.message)} />;

  const side = (
    <>
      <section aria-labelledby="people-title" className="grid gap-2">
        <h2 id="people-title" className="text-sm font-bold text-slate-900">
          <Trans>Here now ({state.people.length})</Trans>
        </h2>
        <PeoplePanel
          people={state.people}
          myId={myId}
          iOwn={room.role === 'owner'}
          onReport={reportPerson}
          onAppoint={(p, appoint) => act({ action: appoint ? 'appoint' : 'dismiss', userId: p.userId })}
          onTransfer={(p) =>
            void ask({ title: t`Hand ${room.name} to ${p.username}? You will become a moderator.`, confirmLabel: t`Hand room over` }).then(
              (answer) => answer && act({ action: 'transfer', userId: p.userId }),
            )
          }
        />
      </section>
      {moderator && (
        <section aria-labelledby="settings-title" className="mt-4 grid gap-2">
          <h2 id="settings-title" className="text-sm font-bold text-slate-900">
            <Trans>Room settings</Trans>
          </h2>
          <ModerationPanel room={room} act={act} />
        </section>
      )}
    </>
  );

  return (
    <main id="main" className="flex h-frame flex-col bg-slate-50">
      <DocumentTitle title={t`${room.name} · Parley`} />
      <PageHeader back="/groupchat" backLabel={t`Rooms`} title={room.name}>
        <div className="flex items-center gap-2">
          <Link to={`/search?roomId=${encodeURIComponent(room.roomId)}&room=${encodeURIComponent(room.name)}`} className={secondary}>
            <Trans>Search</Trans>
          </Link>
          {isMobile && (
            <button
              type="button"
              aria-expanded={panel !== null}
              aria-controls="room-side"
              onClick={() => setPanel(panel ? null : 'people')}
              className={secondary}
            >
              <Trans>People ({state.people.length})</Trans>
            </button>
          )}
          {room.role !== 'owner' && (
            <button
              type="button"
              className={secondary}
              onClick={() =>
                void leave(room.roomId)
                  .unwrap()
                  .then(onLeft)
                  .catch((err: unknown) =>
                    toast({ title: t`Could not leave`, description: describeApiError(err, t`Please try again.`), variant: 'error' }),
                  )
              }
            >
              <Trans>Leave</Trans>
            </button>
          )}
        </div>
      </PageHeader>
      {room.slowModeS > 0 && (
        <p className="bg-indigo-50 px-4 py-1 text-sm text-indigo-950">
          {t`Slow mode: ${plural(room.slowModeS, { one: '# second between messages.', other: '# seconds between messages.' })}`}
        </p>
      )}
      <div className="flex min-h-0 flex-1">
        <div className="relative flex min-h-0 min-w-0 flex-1 flex-col">
          {isMobile && panel && (
            <div id="room-side" className="max-h-[50dvh] shrink-0 overflow-y-auto border-b border-slate-200 bg-white p-3">
              {side}
            </div>
          )}
          {conn && (
            <ChatBackground src={background ?? null}>
              <ConversationView
                state={state}
                room={conn}
                myId={myId}
                label={t`Conversation in ${room.name}`}
                placeholder={t`Message ${room.name}`}
                writeBlocked={writeBlocked}
                canModerate={canModerate}
                moderation={moderation}
                onReport={onReport}
                links="open"
                linkPreview={linkPreview}
                focusId={target}
                media={media}
                threads={threads}
              />
            </ChatBackground>
          )}
          {isMobile && thread}
        </div>
        {!isMobile && thread}
        {!isMobile && !thread && (
          <section
            id="room-side"
            aria-label={t`About the room`}
            className="w-72 shrink-0 overflow-y-auto border-s border-slate-200 bg-white p-4"
          >
            {side}
          </section>
        )}
      </div>
    </main>
  );
}
