import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { useLiveStreamsQuery } from './liveApi';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const SHOWN = 3;

/** The dashboard's "live now": the most watched streams, and the way to all of them or to go live. */
export default function LiveNowSection() {
  const { t } = useLingui();
  const { data, isError } = useLiveStreamsQuery({});
  if (isError)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Live streams could not be loaded. Check your connection.</Trans>
      </p>
    );
  if (!data)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Loading Content...</Trans>
      </p>
    );
  const top = data.streams.slice(0, SHOWN);
  return (
    <div className="grid gap-2">
      {top.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>Nobody is live right now.</Trans>
        </p>
      ) : (
        <ul className="grid gap-1" aria-label={t`Streams live now`}>
          {top.map((s) => (
            <li key={s.roomId}>
              <Link to={`/livestream/${s.roomId}`} className={`text-base text-slate-900 underline-offset-2 hover:underline ${focusRing}`}>
                <strong>{s.title}</strong> · {s.broadcaster.username} ·{' '}
                {t`${plural(s.viewers, { 0: 'nobody watching yet', one: '# watching', other: '# watching' })}`}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to="/livestream" className={`font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`}>
        <Trans>All streams, or go live</Trans>
      </Link>
    </div>
  );
}
