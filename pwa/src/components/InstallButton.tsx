import { promptInstall, useInstallState } from '../lib/install';
import { Trans } from '@lingui/react/macro';

/** Appears only while the browser offers installation, and never once Parley is installed. */
export function InstallButton({ className = '' }: { className?: string }) {
  const { canInstall, installed } = useInstallState();
  if (!canInstall || installed) return null;
  return (
    <button
      type="button"
      onClick={() => void promptInstall()}
      className={`inline-flex items-center gap-2 rounded-lg border border-indigo-700 px-3 py-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M12 3v12m0 0 4-4m-4 4-4-4M5 21h14" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <Trans>Install app</Trans>
    </button>
  );
}
