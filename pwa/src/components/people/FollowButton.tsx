import type { LiveFollowState } from '@parley/contract/live';
import { focusRing } from '../ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

type Props = {
  name: string;
  /** From `useFollowStateQuery(userId)`; nothing is shown before it arrives. */
  state: LiveFollowState | undefined;
  busy: boolean;
  /** `useSetFollowMutation`'s trigger, bound to the person. */
  setFollow(follow: boolean): Promise<{ data?: LiveFollowState; error?: unknown }>;
  className?: string;
};

/**
 * Follow or unfollow a broadcaster (a follower is told when they go live): a toggle button
 * (aria-pressed) with the follower count, on the stream page and on a profile.
 */
export function FollowButton({ name, state, busy, setFollow, className = '' }: Props) {
  const { t } = useLingui();
  if (!state) return null;
  const toggle = async () => {
    const r = await setFollow(!state.following);
    if (r.error) toast({ title: t`That did not work`, description: describeApiError(r.error), variant: 'error' });
    else if (r.data?.following) toast({ title: t`You follow ${name}`, description: t`You will be told when they go live.` });
  };
  const followers = state.followers;
  const count = plural(followers, { one: '# follower', other: '# followers' });
  return (
    <button
      type="button"
      aria-pressed={state.following}
      aria-label={state.following ? t`Following ${name}, ${count}` : t`Follow ${name}, ${count}`}
      disabled={busy}
      onClick={() => void toggle()}
      className={`min-h-11 rounded-lg px-4 font-semibold ${state.following ? 'bg-slate-200 text-slate-900' : 'bg-indigo-700 text-white hover:bg-indigo-800'} ${focusRing} ${className}`}
    >
      {state.following ? t`Following · ${followers}` : t`Follow · ${followers}`}
    </button>
  );
}
