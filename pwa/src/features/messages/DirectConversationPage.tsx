import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useCurrentUser } from '../../app/hooks';
import { useChatBackgroundQuery, useFileReportMutation, useStoredRoomDeps, useConversationMedia } from '../../app/api';
import { ChatBackground } from '../../components/conversation/ChatBackground';
import { ReportAction } from '../../components/conversation/ReportAction';
import type { RoomMessage } from '@parley/contract/rooms';
import { heldRoomReport, reportOutcome, type ReportChoice } from '../../realtime/reportEvidence';
import { Avatar } from '../../components/Avatar';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/FormField';
import { PageHeader } from '../../components/ui/PageHeader';
import { ConversationView } from '../../components/conversation/ConversationView';
import { describeApiError } from '../../lib/apiError';
import { useOnlinePresence } from '../../realtime/socket';
import { useStoredRoom } from '../../realtime/storedRoom';
import { useOpenDirectQuery } from './messagesApi';

/** /messages/:username: the persistent conversation with a friend. */
export default function DirectConversationPage() {
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
  // A message, or (from the header) the person; the server reads the messages from its own copy.
  const report = useCallback(
    async (userId: string, choice: ReportChoice, messageId?: number) => {
      if (!roomId) throw new Error('There is no one to report here any more.');
      reportOutcome(choice, await fileReport(heldRoomReport('direct', roomId, userId, choice, messageId)));
    },
    [fileReport, roomId],
  );
  const onReport = useCallback((m: RoomMessage, choice: ReportChoice) => report(m.senderId, choice, m.id), [report]);

  return (
    <main id="main" className="flex h-frame flex-col bg-slate-50">
      <DocumentTitle title={`${friend?.username ?? username} · Messages · Parley`} />
      {/* The whole name, wrapping on a phone rather than cut to "bob_de…"; online or not beside it. */}
      <PageHeader
        back="/messages"
        backLabel="Messages"
        leading={friend && <Avatar name={friend.username} src={friend.avatar || null} size={32} />}
        title={friend?.username ?? username}
        note={friend && (isOnline ? 'online' : 'offline')}
      >
        {friend && <ReportAction partnerName={friend.username} onSend={(choice) => report(friend.userId, choice)} />}
      </PageHeader>
      {isLoading && (
        <p role="status" className="p-6">
          Opening the conversation…
        </p>
      )}
      {error && (
        <div className="grid flex-1 place-content-center gap-3 p-6 text-center">
          <p role="alert" className="text-lg font-semibold text-slate-900">
            {describeApiError(error)}
          </p>
          <Link to="/messages" className={`font-semibold text-indigo-800 underline ${focusRing}`}>
            Back to your conversations
          </Link>
        </div>
      )}
      {friend && conn && (
        <div className="flex min-h-0 flex-1 flex-col">
          {state.phase === 'refused' && state.refusal ? (
            <p role="alert" className="p-6 text-center text-slate-900">
              {state.refusal.message}
            </p>
          ) : (
            <ChatBackground src={background ?? null}>
              <ConversationView
                state={state}
                room={conn}
                myId={me?.userId ?? ''}
                label={`Conversation with ${friend.username}`}
                placeholder={`Message ${friend.username}`}
                writeBlocked={state.phase === 'removed' && state.removed ? state.removed.note : null}
                receiptsFor={friend.userId}
                onReport={onReport}
                media={media}
              />
            </ChatBackground>
          )}
        </div>
      )}
    </main>
  );
}
