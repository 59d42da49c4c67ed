import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../app/hooks';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/FormField';
import { describeApiError } from '../../lib/apiError';
import { ConversationsList } from './ConversationsList';
import { useConversations } from './useConversations';

/** /messages: direct conversations with friends. */
export default function ConversationsPage() {
  const me = useCurrentUser();
  const { data, error, isLoading } = useConversations();
  return (
    <div className="min-h-dvh bg-slate-50">
      <DocumentTitle title="Messages · Parley" />
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-3 py-2 sm:px-4">
        <Link to="/dashboard" className={`rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
          <span aria-hidden="true">← </span>Dashboard
        </Link>
        <h1 className="text-lg font-bold text-slate-900">Messages</h1>
      </header>
      <main id="main" className="mx-auto grid max-w-2xl gap-4 p-3 sm:p-6">
        {isLoading && <p role="status">Loading conversations…</p>}
        {error && (
          <p role="alert" className="text-red-700">
            {describeApiError(error)}
          </p>
        )}
        {data && data.conversations.length === 0 && (
          <p className="text-slate-700">
            No conversations yet. Friends you make in chats can be messaged here, and what they send waits for you.
          </p>
        )}
        {data && data.conversations.length > 0 && <ConversationsList conversations={data.conversations} myId={me?.userId ?? ''} />}
      </main>
    </div>
  );
}
