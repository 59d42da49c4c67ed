import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../store/hooks';
import { buttonClass } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { EmptyState } from '../../components/ui/EmptyState';
import { PageHeader } from '../../components/ui/PageHeader';
import { describeApiError } from '../../lib/apiError';
import { ConversationsList } from './ConversationsList';
import { useConversations } from './useConversations';
import { Trans, useLingui } from '@lingui/react/macro';

/** /messages: direct conversations with friends. */
export default function ConversationsPage() {
  const { t } = useLingui();
  const me = useCurrentUser();
  const { data, error, isLoading } = useConversations();
  return (
    <main id="main" className="min-h-frame bg-canvas">
      <DocumentTitle title={t`Messages · Parley`} />
      <PageHeader back="/dashboard" backLabel={t`Dashboard`} title={t`Messages`}>
        <Link to="/search" className={buttonClass('secondary', 'sm')}>
          <Trans>Search messages</Trans>
        </Link>
      </PageHeader>
      <div className="mx-auto grid max-w-4xl gap-4 p-3 sm:p-6">
        {isLoading && (
          <p role="status">
            <Trans>Loading conversations…</Trans>
          </p>
        )}
        {error && (
          <p role="alert" className="text-red-700">
            {describeApiError(error, t`Your conversations could not be loaded. Please try again.`)}
          </p>
        )}
        {data && data.conversations.length === 0 && (
          <EmptyState>
            <Trans>No conversations yet. Friends you make in chats can be messaged here, and what they send waits for you.</Trans>
          </EmptyState>
        )}
        {data && data.conversations.length > 0 && <ConversationsList conversations={data.conversations} myId={me?.userId ?? ''} />}
      </div>
    </main>
  );
}
