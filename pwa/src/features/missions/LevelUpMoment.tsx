import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { AnimatePresence, motion, useReducedMotion } from 'framer-motion';
import { LEVEL_UP_GOLD, missionEvents, type MissionProgressed } from '@parley/contract/missions';
import { onSocketEvent } from '../../realtime/socket';
import { focusRing } from '../../components/ui/buttonStyles';
import { DEFAULT_LEVEL } from '@parley/contract/constants';
import { useMissionsQuery } from './missionApi';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * Long enough to read; a level-up never asks to be dismissed before anything else can be done. The
 * clock stops while the pointer or the keyboard's focus is on it: nobody loses it mid-read.
 */
const SHOWN_MS = 6000;

/**
 * A level reached, on whatever page is open: a badge that springs in (it only fades when the
 * user prefers reduced motion), announced politely, gone by itself or with its close button.
 */
export function LevelUpMoment() {
  const reduceMotion = useReducedMotion();
  const [reached, setReached] = useState<{ level: number; gold: number } | null>(null);
  // The level held before an event: the missions refetch the event triggers may not have answered yet.
  const levelNow = useMissionsQuery().data?.level ?? DEFAULT_LEVEL;
  const held = useRef(levelNow);
  useEffect(() => {
    held.current = levelNow;
  }, [levelNow]);
  const { t } = useLingui();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hideLater = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setReached(null), SHOWN_MS);
  }, []);
  const holdOn = () => clearTimeout(timer.current);

  useEffect(() => {
    const off = onSocketEvent(missionEvents.progressed, (payload: unknown) => {
      const level = (payload as MissionProgressed | null)?.levelUp;
      if (typeof level !== 'number') return;
      // Each level passed gives its gold.
      const before = held.current;
      const levels = before < level ? level - before : 1;
      setReached({ level, gold: LEVEL_UP_GOLD * levels });
      hideLater();
    });
    return () => {
      off();
      clearTimeout(timer.current);
    };
  }, [hideLater]);

  const level = reached?.level;
  const gold = reached?.gold;
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center px-4">
      <AnimatePresence>
        {reached !== null && (
          <motion.div
            key={reached.level}
            data-testid="level-up"
            onPointerEnter={holdOn}
            onPointerLeave={hideLater}
            onFocus={holdOn}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget)) hideLater();
            }}
            initial={reduceMotion ? { opacity: 0 } : { opacity: 0, scale: 0.5, y: -20 }}
            animate={reduceMotion ? { opacity: 1 } : { opacity: 1, scale: 1, y: 0 }}
            exit={{ opacity: 0 }}
            transition={reduceMotion ? { duration: 0.2 } : { type: 'spring', stiffness: 320, damping: 18 }}
            className="pointer-events-auto flex max-w-sm items-center gap-4 rounded-3xl bg-amber-100 px-5 py-4 text-amber-950 shadow-lg ring-1 ring-amber-300"
          >
            <motion.span
              aria-hidden="true"
              className="grid size-14 shrink-0 place-items-center rounded-full bg-indigo-700 text-2xl font-bold text-white"
              animate={reduceMotion ? undefined : { rotate: [0, -12, 12, 0] }}
              transition={{ duration: 0.6, delay: 0.2 }}
            >
              {reached.level}
            </motion.span>
            <div className="grid gap-1">
              <p className="text-lg font-bold">
                <Trans>Level up! You reached level {level}.</Trans>
              </p>
              <p className="text-sm">
                <Trans>
                  +{gold} gold for reaching level {level}.{' '}
                  <Link to="/missions" className={`font-semibold underline ${focusRing}`} onClick={() => setReached(null)}>
                    See your missions
                  </Link>
                </Trans>
              </p>
            </div>
            <button
              type="button"
              onClick={() => setReached(null)}
              aria-label={t`Close the level-up message`}
              className={`grid size-11 shrink-0 place-items-center rounded-full text-xl hover:bg-amber-200 ${focusRing}`}
            >
              <span aria-hidden="true">×</span>
            </button>
          </motion.div>
        )}
      </AnimatePresence>
    </div>
  );
}
