import { useId } from 'react';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { searchPreferencesActions } from '../../../realtime/searchPreferences';
import { Trans } from '@lingui/react/macro';

/** The private nudity guard for the partner's video: a device setting, saved at once. */
export function NudityGuardSwitch() {
  const dispatch = useAppDispatch();
  const on = useAppSelector((s) => s.searchPreferences.nudityGuard);
  const hint = useId();
  return (
    <label className="flex items-start gap-3 text-base text-slate-900">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => dispatch(searchPreferencesActions.setNudityGuard(e.target.checked))}
        aria-describedby={hint}
        className="mt-1 size-5 accent-indigo-700"
      />
      <span>
        <Trans>Blur nudity in my partner's video</Trans>
        <span id={hint} className="block text-sm text-slate-700">
          <Trans>Checked on this device only: you can still choose to see it, and nothing is sent anywhere.</Trans>
        </span>
      </span>
    </label>
  );
}
