import { Link } from 'react-router-dom';
import { useCurrentUser } from '../../store/hooks';
import { focusRing } from '../../components/ui/buttonStyles';
import { ConversationsList } from './ConversationsList';
import { useConversations } from './useConversations';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** A dashboard section: unread direct messages, the conversations that have them, and the way to all messages. */
export function UnreadMessagesSection() {
  const { t } = useLingui();
  const me = useCurrentUser();
  const { data } = useConversations();
  const unread = data?.conversations.filter((c) => c.unread > 0) ?? [];
  return (
    <section aria-labelledby="unread-messages-title" className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="unread-messages-title" className="flex items-center justify-between text-lg font-bold text-slate-900">
        <Trans>Messages</Trans>
        {data && data.unreadTotal > 0 && (
          <span data-testid="unread-total" className="rounded-full bg-indigo-700 px-2.5 py-0.5 text-sm font-bold text-white">
            {t`${plural(data.unreadTotal, { one: '# unread', other: '# unread' })}`}
          </span>
        )}
      </h2>
      {unread.length > 0 ? (
        <ConversationsList conversations={unread} myId={me?.userId ?? ''} />
      ) : (
        <p className="text-slate-700">
          <Trans>No unread messages.</Trans>
        </p>
      )}
      <Link to="/messages" className={`font-semibold text-indigo-800 underline ${focusRing}`}>
        <Trans>All messages</Trans>
      </Link>
    </section>
  );
}
