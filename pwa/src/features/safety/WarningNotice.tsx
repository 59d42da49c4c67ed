import { useEffect, useId, useRef } from 'react';
import { Link } from 'react-router-dom';
import { focusRing, primaryButton } from '../../components/ui/buttonStyles';
import { useMyWarningsQuery, useWarningSeenMutation } from './safetyApi';
import { isRule, ruleTitle } from './safetyWords';
import { Trans } from '@lingui/react/macro';

/**
 * A moderator's warning, shown once at the next sign-in with the rule it is about; it goes away
 * when the user says they understood.
 */
export function WarningNotice() {
  const { data } = useMyWarningsQuery();
  const [seen, { isLoading }] = useWarningSeenMutation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const warning = data?.[0];

  useEffect(() => {
    if (warning && !dialog.current?.open) dialog.current?.showModal();
  }, [warning]);

  if (!warning) return null;
  // The rule's title in the interface language; one the PWA does not know yet keeps the server's words.
  const title = isRule(warning.rule) ? ruleTitle(warning.rule) : warning.ruleTitle;
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(e) => e.preventDefault()}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-950/60"
    >
      <h2 id={titleId} className="text-lg font-bold">
        <Trans>A moderator warned you</Trans>
      </h2>
      {warning.ruleTitle && (
        <p className="mt-2">
          <Trans>
            About the rule{' '}
            <Link to={`/rules#${warning.rule}`} className={`font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`}>
              {title}
            </Link>
            .
          </Trans>
        </p>
      )}
      {warning.note && <p className="mt-2 whitespace-pre-wrap break-words">“{warning.note}”</p>}
      <p className="mt-2 text-sm text-slate-700">
        <Trans>Another breach can lead to a suspension or a ban.</Trans>
      </p>
      <button
        type="button"
        disabled={isLoading}
        className={`${primaryButton} mt-4`}
        onClick={() => void seen(warning.id).then(() => dialog.current?.close())}
      >
        <Trans>I understand</Trans>
      </button>
    </dialog>
  );
}
