import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { useGetFriendsQuery } from './peopleApi';
import { PersonRow } from './components/PersonRow';
import { Section, secondaryButton } from './components/Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** Friends, online first, with Message (the direct conversation) — a dashboard section, and the friends list of /profile. */
export function FriendsOnlineSection({ title }: { title?: string }) {
  const { data: friends, isLoading, isError } = useGetFriendsQuery();
  const { t } = useLingui();
  const sorted = [...(friends ?? [])].sort((a, b) => Number(b.online) - Number(a.online) || a.username.localeCompare(b.username));
  const online = sorted.filter((f) => f.online).length;
  const total = friends?.length ?? 0;
  return (
    <Section title={title ?? t`Friends`} description={total > 0 ? t`${online} of ${total} online` : undefined}>
      {isLoading ? (
        <p role="status" className="text-sm text-slate-700">
          <Trans>Loading Content...</Trans>
        </p>
      ) : isError ? (
        <p className="text-sm text-slate-700">
          <Trans>Your friends could not be loaded. Check your connection.</Trans>
        </p>
      ) : sorted.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>
            No friends yet. After a chat, send your partner a friend request from{' '}
            <Link to="/dashboard" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
              recent partners
            </Link>
            .
          </Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t`Your friends`}>
          {sorted.map((f) => (
            <PersonRow key={f.userId} username={f.username} avatar={f.avatar} online={f.online}>
              <Link to={`/messages/${f.username}`} className={secondaryButton} aria-label={t`Message ${f.username}`}>
                <Trans>Message</Trans>
              </Link>
            </PersonRow>
          ))}
        </ul>
      )}
    </Section>
  );
}
