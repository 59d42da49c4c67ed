import { Trans } from '@lingui/react/macro';

/** The first stop of the keyboard on every page: straight to its main content. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-[200] rounded bg-white px-3 py-2 text-indigo-700 focus:not-sr-only focus:fixed focus:top-2 focus:start-2"
    >
      <Trans>Skip to content</Trans>
    </a>
  );
}
