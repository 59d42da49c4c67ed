import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { useMissionsQuery } from './missionApi';
import { Plural, Trans } from '@lingui/react/macro';

const link = `font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`;

/** The dashboard's missions section: level, gold, streak and today's quests left, with the way in. */
export default function MissionsSection() {
  const { data, isError } = useMissionsQuery();
  if (isError)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Your missions could not be loaded. Check your connection.</Trans>
      </p>
    );
  if (!data)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Loading Content...</Trans>
      </p>
    );
  const open = data.quests.filter((q) => q.cadence === 'daily' && !q.claimed).length;
  const { level, gold, consecutiveDays } = data;
  return (
    <div className="grid gap-2 text-base text-slate-800">
      <p>
        <Trans>Level {level}</Trans> · <Plural value={gold} one="# gold" other="# gold" /> ·{' '}
        <Plural value={consecutiveDays} one="#-day streak" other="#-day streak" />
      </p>
      <p className="text-sm text-slate-700">
        {open > 0 ? (
          <Plural value={open} one="# of today’s quests left." other="# of today’s quests left." />
        ) : (
          <Trans>Today’s quests are done. Well done!</Trans>
        )}
      </p>
      <p className="flex gap-4">
        <Link to="/missions" className={link}>
          <Trans>Missions</Trans>
        </Link>
        <Link to="/store" className={link}>
          <Trans>Store</Trans>
        </Link>
      </p>
    </div>
  );
}
