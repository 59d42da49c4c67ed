import { useId } from 'react';
import { Link } from 'react-router-dom';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Moderation } from '@parley/contract/rooms';
import { focusRing } from '../../components/ui/buttonStyles';
import { say } from '../../components/conversation/moderation';
import { SLOW_MODES } from '../../components/conversation/moderationRecord';
import { useLiveRestrictionsQuery } from './liveApi';

/** Changes are told as they happen (useLiveChat); mutes also run out on their own, so the lists are read again this often while shown. */
const REFRESH_MS = 60_000;

const small = `min-h-11 shrink-0 rounded-lg bg-slate-700 px-3 text-sm font-semibold text-white hover:bg-slate-600 ${focusRing}`;

/**
 * The stream's moderation beside its chat, for the broadcaster and their moderators: slow mode
 * (the group rooms' choices) and the people muted or banned in the channel, each with a way to
 * lift it. Every action is the rooms' `room:moderate`; the server decides who may.
 */
export function LiveModerationPanel({
  roomId,
  moderate,
  recordLink,
}: {
  roomId: string;
  moderate: (m: Moderation) => Promise<string | null>;
  /** The broadcaster reads the stream's record; a moderator does not. */
  recordLink: boolean;
}) {
  const { i18n, t } = useLingui();
  const slowId = useId();
  const headingId = useId();
  const { data, isError, isLoading, refetch } = useLiveRestrictionsQuery(roomId, { pollingInterval: REFRESH_MS });
  const act = (m: Moderation) => say(moderate(m));
  const slow = data?.slowModeS ?? 0;
  // A length set elsewhere (up to the rooms' limit) is shown as it is, among the usual choices.
  const choices = SLOW_MODES.includes(slow) ? SLOW_MODES : [...SLOW_MODES, slow].sort((a, b) => a - b);
  const until = (ms: number) => i18n.date(new Date(ms), { timeStyle: 'short' });

  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-3 rounded-xl bg-slate-900 p-3 text-sm text-slate-100"
      data-testid="live-moderation"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-white">
          <Trans>Moderation</Trans>
        </h2>
        {recordLink && (
          <Link to={`/livestream/${encodeURIComponent(roomId)}/record`} className={`text-indigo-200 underline ${focusRing}`}>
            <Trans>Moderation record</Trans>
          </Link>
        )}
      </div>
      {isLoading && (
        <p>
          <Trans>Loading who is muted or banned…</Trans>
        </p>
      )}
      {isError && (
        <p role="alert" className="flex flex-wrap items-center gap-2 text-amber-200">
          <Trans>We could not load who is muted or banned.</Trans>
          <button type="button" className={small} onClick={() => void refetch()}>
            <Trans>Try again</Trans>
          </button>
        </p>
      )}
      {data && (
        <>
          <div className="grid gap-1">
            <label htmlFor={slowId} className="font-medium">
              <Trans>Slow mode</Trans>
            </label>
            <select
              id={slowId}
              value={slow}
              onChange={(e) => act({ action: 'slowMode', seconds: Number(e.target.value) })}
              className={`min-h-11 rounded-lg border border-slate-500 bg-slate-800 px-3 text-white ${focusRing}`}
            >
              {choices.map((s) => (
                <option key={s} value={s}>
                  {s === 0 ? t`Off` : t`${plural(s, { one: '# second between messages', other: '# seconds between messages' })}`}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1">
            <h3 className="font-medium">
              <Trans>Muted</Trans>
            </h3>
            {data.muted.length === 0 ? (
              <p className="text-slate-300">
                <Trans>Nobody is muted.</Trans>
              </p>
            ) : (
              <ul className="grid gap-1" aria-label={t`Muted viewers`}>
                {data.muted.map((m) => {
                  const name = m.username;
                  const time = until(m.mutedUntil);
                  return (
                    <li key={m.userId} className="flex items-center justify-between gap-2">
                      <span className="min-w-0 break-words">
                        <Trans>
                          {name} <span className="text-slate-300">until {time}</span>
                        </Trans>
                      </span>
                      <button
                        type="button"
                        className={small}
                        aria-label={t`Unmute ${name}`}
                        onClick={() => act({ action: 'unmute', userId: m.userId })}
                      >
                        <Trans context="lift a viewer's mute">Unmute</Trans>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
          <div className="grid gap-1">
            <h3 className="font-medium">
              <Trans>Banned</Trans>
            </h3>
            {data.banned.length === 0 ? (
              <p className="text-slate-300">
                <Trans>Nobody is banned.</Trans>
              </p>
            ) : (
              <ul className="grid gap-1" aria-label={t`Banned viewers`}>
                {data.banned.map((b) => {
                  const name = b.username;
                  const reason = b.reason;
                  return (
                    <li key={b.userId} className="flex items-center justify-between gap-2">
                      <span className="min-w-0 break-words">
                        {reason ? (
                          <Trans>
                            {name} <span className="text-slate-300">({reason})</span>
                          </Trans>
                        ) : (
                          name
                        )}
                      </span>
                      <button
                        type="button"
                        className={small}
                        aria-label={t`Unban ${name}`}
                        onClick={() => act({ action: 'unban', userId: b.userId })}
                      >
                        <Trans>Unban</Trans>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
