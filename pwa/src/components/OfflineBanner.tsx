import { useOnline } from '../lib/online';
import { Trans } from '@lingui/react/macro';

/** Says the app is offline and showing what this device saved; disappears when back online. */
export function OfflineBanner({ forceShow = false }: { forceShow?: boolean }) {
  const online = useOnline();
  if (online && !forceShow) return null;
  return (
    <div role="status" className="sticky top-0 z-40 w-full bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950">
      {online ? (
        <Trans>
          We cannot reach Parley right now. Showing what was saved on this device; Parley reconnects by itself when the connection is back.
        </Trans>
      ) : (
        <Trans>You are offline. Showing what was saved on this device; Parley reconnects by itself when the connection is back.</Trans>
      )}
    </div>
  );
}
