import type { Receiver } from '@parley/contract/matchmaking';
import { Avatar } from '../../../components/Avatar';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const genderWords: Record<NonNullable<Receiver['gender']>, MessageDescriptor> = { male: msg`Male`, female: msg`Female`, other: msg`Other` };

/**
 * Who is on the other side, over the video: on a phone the chat panel is closed, so the partner's
 * name and age show here. While the call is being set up (from the match to their first frame) the
 * card stands in the middle and says so: "Connecting to Ana…"; once they are on screen it is a
 * small tag in the corner.
 */
export function PartnerOverlay({ receiver, connecting }: { receiver: Receiver; connecting: boolean }) {
  const { i18n } = useLingui();
  const facts = [receiver.age ? i18n.number(receiver.age) : null, receiver.gender ? i18n._(genderWords[receiver.gender]) : null]
    .filter(Boolean)
    .join(' · ');
  if (connecting)
    return (
      <div className="absolute inset-0 z-10 grid place-items-center bg-slate-950/70 p-6" data-testid="partner-connecting">
        <div className="grid max-w-xs justify-items-center gap-3 rounded-2xl bg-slate-900/90 px-6 py-5 text-center shadow-xl ring-1 ring-slate-700">
          <Avatar name={receiver.username} src={receiver.avatar || null} size={72} />
          <div>
            <p className="text-xl font-bold text-white">{receiver.username}</p>
            {facts && <p className="text-sm text-slate-300">{facts}</p>}
          </div>
          <p role="status" className="flex items-center gap-2 text-sm font-medium text-slate-100">
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent" />
            <Trans>Connecting to {receiver.username}…</Trans>
          </p>
        </div>
      </div>
    );
  return (
    <div
      className="absolute bottom-3 start-3 z-10 flex max-w-[70%] items-center gap-2 rounded-full bg-slate-950/75 py-1 ps-1 pe-4 text-white"
      data-testid="partner-tag"
    >
      <Avatar name={receiver.username} src={receiver.avatar || null} size={32} />
      <p className="min-w-0 truncate text-sm">
        <span className="font-semibold">{receiver.username}</span>
        {facts && <span className="text-slate-200"> · {facts}</span>}
      </p>
    </div>
  );
}
