import type { Receiver } from '@parley/contract/chat';
import { Avatar } from '../../../components/Avatar';

const genderWords: Record<NonNullable<Receiver['gender']>, string> = { male: 'Male', female: 'Female', other: 'Other' };

/** Who the user is talking to: the partner's public profile and what they have in common. */
export function PartnerCard({ receiver, noCommonTopic }: { receiver: Receiver; noCommonTopic: boolean }) {
  const facts = [receiver.age !== null ? `${receiver.age}` : null, receiver.gender ? genderWords[receiver.gender] : null].filter(Boolean);
  return (
    <section
      aria-label="Your chat partner"
      className="mx-auto mb-4 flex max-w-md flex-col items-center gap-2 rounded-2xl border border-slate-200 bg-white p-4 text-center shadow-sm"
    >
      <Avatar name={receiver.username} src={receiver.avatar || null} size={56} />
      <div>
        <h2 className="text-lg font-bold text-slate-900">{receiver.username}</h2>
        {facts.length > 0 && <p className="text-sm text-slate-600">{facts.join(' · ')}</p>}
      </div>
      {receiver.sharedTopics.length > 0 && (
        <div className="grid gap-1">
          <p className="text-xs font-medium text-slate-600">You both like</p>
          <ul aria-label="Shared topics" className="flex flex-wrap justify-center gap-1.5">
            {receiver.sharedTopics.map((t) => (
              <li key={t} className="rounded-full bg-indigo-100 px-2.5 py-0.5 text-sm text-indigo-900">
                {t}
              </li>
            ))}
          </ul>
        </div>
      )}
      {noCommonTopic && (
        <p className="rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
          No common topic found, so you were matched on your other filters.
        </p>
      )}
      <p className="text-xs text-slate-600">Say hi! Be kind: Parley’s rules apply.</p>
    </section>
  );
}
