import { Link } from 'react-router-dom';
import type { Conversation } from '@parley/contract/direct';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/FormField';
import { RevealedText } from '../../components/conversation/RevealedText';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

/** Conversations with friends, latest first, each with its unread count and whether the friend is online. */
export function ConversationsList({ conversations, myId }: { conversations: Conversation[]; myId: string }) {
  const { t } = useLingui();
  return (
    <ul aria-label={t`Conversations`} className="grid gap-2">
      {conversations.map((c) => (
        <li key={c.roomId}>
          <Link
            to={`/messages/${encodeURIComponent(c.username)}`}
            className={`flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 hover:border-indigo-400 ${focusRing}`}
          >
            <span className="relative">
              <Avatar name={c.username} src={c.avatar || null} size={40} />
              {c.online && (
                <span className="absolute end-0 bottom-0 size-3 rounded-full border-2 border-white bg-emerald-600" aria-hidden="true" />
              )}
            </span>
            <span className="min-w-0 flex-1">
              <span className="flex items-center gap-2 font-semibold text-slate-900">
                {c.username}
                <span className="text-xs font-normal text-slate-600">{c.online ? t`online` : t`offline`}</span>
              </span>
              <span className="block truncate text-sm text-slate-700">
                {c.lastMessage === null ? (
                  t`No messages yet`
                ) : c.lastMessage.deleted ? (
                  <em>
                    <Trans>message deleted</Trans>
                  </em>
                ) : (
                  <>
                    {c.lastMessage.senderId === myId && t`You: `}
                    <RevealedText text={c.lastMessage.text} />
                  </>
                )}
              </span>
            </span>
            {c.unread > 0 && (
              <span
                className="rounded-full bg-indigo-700 px-2 py-0.5 text-xs font-bold text-white"
                aria-label={t`${plural(c.unread, { one: '# unread', other: '# unread' })}`}
              >
                {c.unread > 99 ? '99+' : c.unread}
              </span>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
