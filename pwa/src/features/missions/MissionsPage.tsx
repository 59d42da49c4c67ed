import { Link } from 'react-router-dom';
import { motion } from 'framer-motion';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MissionOverview, MissionQuest } from '@parley/contract/missions';
import { DocumentTitle } from '../../components/DocumentTitle';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { focusRing } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useClaimQuestMutation, useMissionsQuery, useSaveMissionSettingsMutation } from './missionApi';
import { StreakCalendar } from './StreakCalendar';
import { questTitle, rewardLabel } from './missionWords';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

/** The pseudo-locale writes times of day as English does. */
const timeLocale = () => (i18n.locale === 'en-XA' ? 'en' : i18n.locale || 'en');

/** What a reward gave: "+10 XP · +5 gold", "+20 gold". */
function rewardAmount(xp: number, gold: number): string {
  if (xp > 0 && gold > 0) return i18n._(msg`+${xp} XP · +${gold} gold`);
  if (xp > 0) return i18n._(msg`+${xp} XP`);
  return gold > 0 ? i18n._(msg`+${gold} gold`) : '';
}

const card = 'rounded-3xl bg-white p-5 ring-1 ring-slate-200 sm:p-6';

/** A labelled bar for XP and quest progress. */
function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-3 rounded-full bg-slate-200"
    >
      <div
        className="h-3 rounded-full bg-indigo-700 motion-safe:transition-[width] motion-safe:duration-500"
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}

function Quest({ quest }: { quest: MissionQuest }) {
  const [claim, { isLoading }] = useClaimQuestMutation();
  const { t } = useLingui();
  const done = quest.progress >= quest.target;
  const title = questTitle(quest);
  const { xp, gold, progress, target } = quest;
  async function onClaim() {
    const r = await claim({ period: quest.period, questId: quest.questId });
    if ('error' in r && r.error) toast({ title: t`Reward not claimed`, description: describeApiError(r.error), variant: 'error' });
    else toast({ title: t`Reward claimed`, description: t`+${xp} XP and +${gold} gold` });
  }
  return (
    <li className="grid gap-2 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-slate-900">{title}</p>
        <p className="text-sm text-slate-700">
          <Trans>
            +{xp} XP · +{gold} gold
          </Trans>
        </p>
      </div>
      <ProgressBar value={quest.progress} max={quest.target} label={t`${title}: ${progress} of ${target}`} />
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {progress} / {target}
        </p>
        {quest.claimed ? (
          <p className="text-sm font-semibold text-emerald-800">
            <Trans>Claimed</Trans>
          </p>
        ) : (
          <button
            type="button"
            disabled={!done || isLoading}
            onClick={() => void onClaim()}
            aria-label={done ? t`Claim ${gold} gold for “${title}”` : undefined}
            className={`min-h-11 rounded-lg bg-indigo-700 px-4 text-sm font-semibold text-white hover:bg-indigo-800 disabled:bg-slate-300 disabled:text-slate-700 ${focusRing}`}
          >
            {done ? t`Claim` : t`In progress`}
          </button>
        )}
      </div>
    </li>
  );
}

function QuestSection({ id, title, quests, note }: { id: string; title: string; quests: MissionQuest[]; note?: string }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={card}>
      <h2 id={`${id}-heading`} className="text-xl font-bold text-slate-950">
        {title}
      </h2>
      {note && <p className="mt-1 text-sm text-slate-700">{note}</p>}
      <ul className="mt-4 grid gap-3">
        {quests.map((q) => (
          <Quest key={`${q.period}-${q.questId}`} quest={q} />
        ))}
      </ul>
    </section>
  );
}

function Overview({ data }: { data: MissionOverview }) {
  const [saveSettings] = useSaveMissionSettingsMutation();
  const { t } = useLingui();
  const level = data.level;
  const next = data.level + 1;
  const { XP: xp, nextLevel, gold, freezes, maxFreezes, consecutiveDays } = data;
  // Quiet hours as the interface language writes a time of day.
  const hour = (h: number) =>
    new Intl.DateTimeFormat(timeLocale(), { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h));
  const quietFrom = hour(data.settings.quietFrom);
  const quietTo = hour(data.settings.quietTo);
  const span = data.nextLevelXp - data.levelStartXp;
  const daily = data.quests.filter((q) => q.cadence === 'daily');
  const weekly = data.quests.filter((q) => q.cadence === 'weekly');
  return (
    <div className="grid gap-5">
      <section aria-labelledby="level-heading" className={card}>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-4">
            <motion.div
              key={data.level}
              initial={false}
              animate={{ rotate: 0, scale: 1 }}
              className="grid size-16 place-items-center rounded-full bg-indigo-700 text-2xl font-bold text-white"
              aria-hidden="true"
            >
              {data.level}
            </motion.div>
            <div>
              <h2 id="level-heading" className="text-xl font-bold text-slate-950">
                <Trans>Level {level}</Trans>
              </h2>
              <p className="text-slate-700">
                <Trans>
                  {xp} XP · {nextLevel} XP to level {next}
                </Trans>
              </p>
            </div>
          </div>
          <p className="text-lg font-semibold text-amber-900" data-testid="gold">
            <span aria-hidden="true">🪙 </span>
            <Plural value={gold} one="# gold" other="# gold" />
          </p>
        </div>
        <div className="mt-4">
          <ProgressBar value={data.XP - data.levelStartXp} max={span} label={t`Experience towards level ${next}`} />
        </div>
        <p className="mt-3 text-sm text-slate-700">
          <Trans>
            Earn XP and gold by chatting: a chat your partner answers, a chat of a minute or more, your daily visit and quests.{' '}
            <Link to="/store" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
              Spend gold in the store
            </Link>
          </Trans>
        </p>
      </section>

      <section aria-labelledby="streak-heading" className={card}>
        <h2 id="streak-heading" className="text-xl font-bold text-slate-950">
          <span aria-hidden="true">🔥 </span>
          <Plural value={consecutiveDays} one="#-day streak" other="#-day streak" />
        </h2>
        <p className="mt-1 text-slate-700">
          <Trans>
            Streak freezes: {freezes} of {maxFreezes}. You earn one for every 7 days in a row, and a freeze covers a missed day by itself.
          </Trans>
        </p>
        <StreakCalendar today={data.today} visited={data.parsedDates} frozen={data.frozenDates} />
        <label className="mt-4 flex min-h-11 items-center gap-3 text-slate-900">
          <input
            type="checkbox"
            className="size-5 accent-indigo-700"
            checked={data.settings.streakReminders}
            onChange={(e) => void saveSettings({ streakReminders: e.target.checked })}
          />
          <Trans>
            Remind me once a day when my streak is about to end (never between {quietFrom} and {quietTo})
          </Trans>
        </label>
      </section>

      <QuestSection id="daily" title={t`Today’s quests`} quests={daily} note={t`New quests at midnight where you are.`} />
      <QuestSection id="weekly" title={t`This week’s quest`} quests={weekly} />

      <section aria-labelledby="rewards-heading" className={card}>
        <h2 id="rewards-heading" className="text-xl font-bold text-slate-950">
          <Trans>Recent rewards</Trans>
        </h2>
        {data.recentRewards.length === 0 ? (
          <p className="mt-2 text-slate-700">
            <Trans>Nothing yet: start a chat to earn your first XP.</Trans>
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {data.recentRewards.map((r, i) => (
              <li key={`${r.at}-${i}`} className="flex flex-wrap justify-between gap-2 py-2 text-slate-900">
                <span>{rewardLabel(r.label)}</span>
                <span className="text-sm text-slate-700">{rewardAmount(r.xp, r.gold)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** /missions: level, XP, gold, the daily streak with its calendar, quests and recent rewards. */
export default function MissionsPage() {
  const { data, error, refetch } = useMissionsQuery();
  const { t } = useLingui();
  if (!data && !error) return <FullScreenSpinner />;
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Missions · Parley`} />
      <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 md:py-12">
        <h1 className="mb-6 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
          <Trans>Missions</Trans>
        </h1>
        {data ? (
          <Overview data={data} />
        ) : (
          <div role="alert" className={card}>
            <p className="text-slate-900">{describeApiError(error, t`Your missions could not be loaded.`)}</p>
            <button type="button" onClick={() => void refetch()} className={`mt-3 font-semibold text-indigo-700 underline ${focusRing}`}>
              <Trans>Try again</Trans>
            </button>
          </div>
        )}
      </div>
    </main>
  );
}
