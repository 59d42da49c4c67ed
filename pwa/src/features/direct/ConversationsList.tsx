import type { Conversation } from '@parley/contract/direct';
import { Avatar } from '../../components/Avatar';
import { ListRow } from '../../components/ui/ListRow';
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
          <ListRow
            to={`/messages/${encodeURIComponent(c.username)}`}
            className="border border-line bg-surface hover:border-accent-text"
            leading={
              <span className="relative block">
                <Avatar name={c.username} src={c.avatar || null} size={40} />
                {c.online && (
                  <span className="absolute end-0 bottom-0 size-3 rounded-full border-2 border-surface bg-emerald-600" aria-hidden="true" />
                )}
              </span>
            }
            title={
              <>
                {c.username} <span className="text-caption font-normal text-fg-subtle">{c.online ? t`online` : t`offline`}</span>
              </>
            }
            detail={
              c.lastMessage === null ? (
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
              )
            }
            trailing={
              c.unread > 0 && (
                <span
                  className="rounded-pill bg-accent px-2 py-0.5 text-caption font-bold text-accent-fg"
                  aria-label={t`${plural(c.unread, { one: '# unread', other: '# unread' })}`}
                >
                  {c.unread > 99 ? '99+' : c.unread}
                </span>
              )
            }
          />
        </li>
      ))}
    </ul>
  );
}
