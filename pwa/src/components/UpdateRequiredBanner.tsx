import { useId, useState } from 'react';
import { useSocketFailure } from '../realtime/socket';
import { reloadToUpdate } from '../lib/serviceWorker';
import { useLingui } from '@lingui/react/macro';

/**
 * Shown when the server refused this build as too old for its realtime protocol: nothing live
 * works until a reload brings the new version, so it stays on top of every page until then.
 */
export function UpdateRequiredBanner({ onReload = reloadToUpdate }: { onReload?: () => Promise<void> }) {
  const { t } = useLingui();
  const failure = useSocketFailure();
  const [updating, setUpdating] = useState(false);
  const messageId = useId();
  if (failure !== 'outdated') return null;
  return (
    <section
      aria-labelledby={messageId}
      className="sticky top-0 z-50 flex w-full flex-wrap items-center justify-center gap-3 bg-indigo-800 px-4 py-3 text-white"
    >
      {/* An alert: announced at once, since chats and presence stopped working. */}
      <p id={messageId} role="alert" className="text-sm font-medium">
        {/* The contract's PROTOCOL_OUTDATED_MESSAGE, in the interface language. */}
        {t`Parley has been updated. Reload to get the new version.`}
      </p>
      <button
        type="button"
        disabled={updating}
        onClick={() => {
          setUpdating(true);
          void onReload();
        }}
        className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-indigo-800 hover:bg-indigo-50 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        {updating ? t`Updating…` : t`Reload`}
      </button>
    </section>
  );
}
