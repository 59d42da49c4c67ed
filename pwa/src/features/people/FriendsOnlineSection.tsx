import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';
import { useGetFriendsQuery } from './peopleApi';
import { PersonRow } from './components/PersonRow';
import { Section, secondaryButton } from './components/Section';

/** Friends, online first, with Message (the direct conversation) — a dashboard section, and the friends list of /profile. */
export function FriendsOnlineSection({ title = 'Friends' }: { title?: string }) {
  const { data: friends, isLoading, isError } = useGetFriendsQuery();
  const sorted = [...(friends ?? [])].sort((a, b) => Number(b.online) - Number(a.online) || a.username.localeCompare(b.username));
  const online = sorted.filter((f) => f.online).length;
  return (
    <Section title={title} description={friends && friends.length > 0 ? `${online} of ${friends.length} online` : undefined}>
      {isLoading ? (
        <p className="text-sm text-slate-700">Loading Content...</p>
      ) : isError ? (
        <p className="text-sm text-slate-700">Your friends could not be loaded. Check your connection.</p>
      ) : sorted.length === 0 ? (
        <p className="text-sm text-slate-700">
          No friends yet. After a chat, send your partner a friend request from{' '}
          <Link to="/dashboard" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
            recent partners
          </Link>
          .
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Your friends">
          {sorted.map((f) => (
            <PersonRow key={f.userId} username={f.username} avatar={f.avatar} online={f.online}>
              <Link to={`/messages/${f.username}`} className={secondaryButton} aria-label={`Message ${f.username}`}>
                Message
              </Link>
            </PersonRow>
          ))}
        </ul>
      )}
    </Section>
  );
}
