import type { RecentPartner } from '@parley/contract/people';
import { focusRing } from '../ui/buttonStyles';
import { Trans, useLingui } from '@lingui/react/macro';

const button = `rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:bg-slate-100 disabled:opacity-60 ${focusRing}`;

/** What the actions need: the partner as the server recorded the match, and the two calls (store/api's usePartnerActions). */
export type PartnerActionsState = {
  partner: RecentPartner | undefined;
  busy: boolean;
  askFriend(): void;
  rate(value: 'up' | 'down'): void;
};

/**
 * During and after a text or video chat: send the partner a friend request, and rate them once
 * for this room (thumbs up or down). The app's hook is passed in, as shared components do not
 * reach the app.
 */
export function PartnerActions({
  username,
  useActions,
  tone = 'light',
}: {
  username: string;
  useActions: (username: string) => PartnerActionsState;
  tone?: 'light' | 'dark';
}) {
  const { partner, busy, askFriend, rate } = useActions(username);
  const { t } = useLingui();
  if (!partner) return null;
  const canAsk = partner.relation === 'none' || partner.relation === 'requestReceived';
  const note = tone === 'light' ? 'text-sm text-slate-700' : 'text-sm text-slate-200';
  const said = partner.relation === 'friend' ? t`You are friends` : partner.relation === 'requestSent' ? t`Friend request sent` : null;

  return (
    <div
      role="group"
      aria-label={t`What to do about ${username}`}
      className="mx-auto mb-4 flex max-w-md flex-wrap items-center justify-center gap-2"
    >
      {canAsk && (
        <button type="button" className={button} disabled={busy} onClick={askFriend}>
          <Trans>Add friend</Trans>
        </button>
      )}
      {said && <span className={note}>{said}</span>}
      {!partner.rated &&
        (['up', 'down'] as const).map((value) => (
          <button
            key={value}
            type="button"
            className={button}
            disabled={busy}
            aria-label={value === 'up' ? t`Thumbs up for ${username}` : t`Thumbs down for ${username}`}
            onClick={() => rate(value)}
          >
            {value === 'up' ? '👍' : '👎'}
          </button>
        ))}
      {partner.rated && (
        <span className={note}>
          <Trans>Rated, thank you</Trans>
        </span>
      )}
    </div>
  );
}
