import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useCurrentUser } from '../../store/hooks';
import {
  useChatBackgroundQuery,
  useFileReportMutation,
  useLinkPreviewLoader,
  useStoredRoomDeps,
  useConversationMedia,
} from '../../store/api';
import { useMessageTarget } from '../../components/conversation/useMessageTarget';
import { ChatBackground } from '../../components/conversation/ChatBackground';
import { ReportAction } from '../../components/conversation/ReportAction';
import type { RoomMessage } from '@parley/contract/rooms';
import { heldRoomReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { Avatar } from '../../components/Avatar';
import { DocumentTitle } from '../../components/DocumentTitle';
import { PageHeader } from '../../components/ui/PageHeader';
import { buttonClass, focusRing } from '../../components/ui/buttonStyles';
import { ConversationView } from '../../components/conversation/ConversationView';
import { describeApiError } from '../../lib/apiError';
import { useOnlinePresence } from '../../realtime/socket';
import { useStoredRoom } from '../../realtime/storedRoom';
import { useOpenDirectQuery } from './messagesApi';
import { DIRECT_REFUSALS } from '@parley/contract/direct';
import { errorBody } from '../../lib/apiError';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** The server's refusals of a direct conversation (contract DIRECT_REFUSALS), in the interface language. */
function refusal(code: string | undefined, serverMessage: string): string {
  if (code === 'blocked' || serverMessage === DIRECT_REFUSALS.blocked)
    return i18n._(msg`This conversation is closed: one of you blocked the other. Neither of you can send messages here any more.`);
  if (code === 'not_friends') return i18n._(msg`You can send direct messages to friends only.`);
  if (code === 'unknown_user') return i18n._(msg`There is no one with that username.`);
  return serverMessage;
}

/** /messages/:username: the persistent conversation with a friend. */
export default function DirectConversationPage() {
  const { t } = useLingui();
  const { username = '' } = useParams();
  const me = useCurrentUser();
  const { data: friend, error, isLoading } = useOpenDirectQuery(username);
  const online = useOnlinePresence().users;
  const [state, conn] = useStoredRoom(useStoredRoomDeps(friend?.roomId ?? null));
  const media = useConversationMedia();
  const { data: background } = useChatBackgroundQuery();
  const isOnline = friend ? online.some((u) => u.userId === friend.userId) || friend.online : false;
  const [fileReport] = useFileReportMutation();
  const roomId = friend?.roomId;
  const linkPreview = useLinkPreviewLoader(roomId ?? null);
  const target = useMessageTarget(conn, state.phase === 'open');
  // A message, or (from the header) the person; the server reads the messages from its own copy.
  const report = useCallback(
    async (userId: string, choice: ReportChoice, messageId?: number) => {
      if (!roomId) throw new Error(i18n._(msg`There is no one to report here any more.`));
      reportOutcome(choice, await fileReport(heldRoomReport('direct', roomId, userId, choice, messageId)));
    },
    [fileReport, roomId],
  );
  const onReport = useCallback((m: RoomMessage, choice: ReportChoice) => report(m.senderId, choice, m.id), [report]);

  return (
    <main id="main" className="flex h-frame flex-col bg-slate-50">
      <DocumentTitle title={t`${friend?.username ?? username} · Messages · Parley`} />
      {/* The whole name, wrapping on a phone rather than cut to "bob_de…"; online or not beside it. */}
      <PageHeader
        back="/messages"
        backLabel={t`Messages`}
        leading={friend && <Avatar name={friend.username} src={friend.avatar || null} size={32} />}
        title={friend?.username ?? username}
        note={friend && (isOnline ? t`online` : t`offline`)}
      >
        {friend && (
          <Link
            to={`/search?roomId=${encodeURIComponent(friend.roomId)}&room=${encodeURIComponent(friend.username)}`}
            className={buttonClass('secondary', 'sm')}
          >
            <Trans>Search</Trans>
          </Link>
        )}
        {friend && <ReportAction partnerName={friend.username} onSend={(choice) => report(friend.userId, choice)} />}
      </PageHeader>
      {isLoading && (
        <p role="status" className="p-6">
          <Trans>Opening the conversation…</Trans>
        </p>
      )}
      {error && (
        <div className="grid flex-1 place-content-center gap-3 p-6 text-center">
          <p role="alert" className="text-lg font-semibold text-slate-900">
            {refusal(errorBody(error).code, describeApiError(error, t`This conversation could not be opened. Please try again.`))}
          </p>
          <Link to="/messages" className={`font-semibold text-indigo-800 underline ${focusRing}`}>
            <Trans>Back to your conversations</Trans>
          </Link>
        </div>
      )}
      {friend && conn && (
        <div className="flex min-h-0 flex-1 flex-col">
          {state.phase === 'refused' && state.refusal ? (
            <p role="alert" className="p-6 text-center text-slate-900">
              {refusal(state.refusal.code, state.refusal.message)}
            </p>
          ) : (
            <ChatBackground src={background ?? null}>
              <ConversationView
                state={state}
                room={conn}
                myId={me?.userId ?? ''}
                label={t`Conversation with ${friend.username}`}
                placeholder={t`Message ${friend.username}`}
                writeBlocked={state.phase === 'removed' && state.removed ? refusal(undefined, state.removed.note) : null}
                receiptsFor={friend.userId}
                onReport={onReport}
                links="open"
                linkPreview={linkPreview}
                focusId={target}
                media={media}
              />
            </ChatBackground>
          )}
        </div>
      )}
    </main>
  );
}
