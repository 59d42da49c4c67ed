import type { Receiver } from '@parley/contract/chat';
import { Avatar } from '../../../components/Avatar';

/** Who the stranger is: the public profile the matchmaker shared, and the topics in common. */
export function PartnerCard({ receiver, noCommonTopic }: { receiver: Receiver; noCommonTopic: boolean }) {
  const facts = [receiver.age ? `${receiver.age}` : null, receiver.gender].filter(Boolean).join(' · ');
  return (
    <section aria-label="Your partner" className="flex items-center gap-3 border-b border-slate-700 p-3">
      <Avatar name={receiver.username} src={receiver.avatar || null} size={40} />
      <div className="min-w-0">
        <p className="truncate font-semibold text-white">{receiver.username}</p>
        {facts && <p className="text-sm text-slate-300">{facts}</p>}
        {receiver.sharedTopics.length > 0 ? (
          <ul className="mt-1 flex flex-wrap gap-1" aria-label="Topics you share">
            {receiver.sharedTopics.map((t) => (
              <li key={t} className="rounded-full bg-indigo-800 px-2 py-0.5 text-xs text-white">
                {t}
              </li>
            ))}
          </ul>
        ) : noCommonTopic ? (
          <p className="text-xs text-amber-200">No common topic found, so you were matched with anyone who fits your filters.</p>
        ) : null}
      </div>
    </section>
  );
}
