import { useState } from 'react';
import { Link } from 'react-router-dom';
import { NAME_COLOURS, NAME_COLOUR_IDS, perksOf, type BillingStatus, type NameColour } from '@parley/contract/billing';
import { focusRing } from '../../components/ui/buttonStyles';
import { DisplayName } from '../../components/people/DisplayName';
import { describeApiError } from '../../lib/apiError';
import { useSetNameStyleMutation } from './billingApi';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const LABELS: Record<NameColour, MessageDescriptor> = {
  crimson: msg`Crimson`,
  ember: msg`Ember`,
  amber: msg`Amber`,
  forest: msg`Forest`,
  teal: msg`Teal`,
  ocean: msg`Ocean`,
  violet: msg`Violet`,
  rose: msg`Rose`,
};

/** A premium member picks their name colour (or none); everyone else learns it is a perk. */
export function NameColourSetting({ status, username }: { status: BillingStatus; username: string }) {
  const [save, saving] = useSetNameStyleMutation();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { i18n, t } = useLingui();
  // Shown as chosen at once; put back if the server refuses it.
  const [picked, setPicked] = useState<NameColour | null | undefined>(undefined);
  if (!perksOf(status.premiumUser).badge)
    return (
      <p className="text-sm text-slate-700">
        <Trans>
          A name colour and the premium badge come with{' '}
          <Link to="/premium-membership" className={`font-medium text-indigo-800 underline underline-offset-2 ${focusRing}`}>
            Plus and Pro
          </Link>
          .
        </Trans>
      </p>
    );

  async function choose(nameColour: NameColour | null) {
    setError(null);
    setSaved(false);
    setPicked(nameColour);
    const r = await save({ nameColour });
    if ('error' in r) {
      setPicked(undefined);
      setError(describeApiError(r.error, t`Your name colour could not be saved.`));
    } else setSaved(true);
  }

  const current = picked === undefined ? status.nameColour : picked;
  const options: Array<NameColour | null> = [null, ...NAME_COLOUR_IDS];
  return (
    <fieldset aria-busy={saving.isLoading}>
      <legend className="text-sm font-semibold text-slate-900">
        <Trans>Name colour</Trans>
      </legend>
      <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {options.map((c) => (
          <label
            key={c ?? 'default'}
            className={`flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-700 ${current === c ? 'border-indigo-700 bg-indigo-50' : 'border-slate-300 bg-white'}`}
          >
            <input type="radio" name="name-colour" className="size-4" checked={current === c} onChange={() => void choose(c)} />
            <span
              aria-hidden="true"
              className="size-4 rounded-full ring-1 ring-slate-300"
              style={{ background: c ? NAME_COLOURS[c] : '#0f172a' }}
            />
            <span className="text-sm font-medium text-slate-900">{c ? i18n._(LABELS[c]) : t`Default`}</span>
          </label>
        ))}
      </div>
      <p className="mt-3 text-sm text-slate-700">
        <Trans>
          Others see: <DisplayName name={username} style={{ badge: true, nameColour: current }} />
        </Trans>
      </p>
      <p role="status" className="mt-1 text-sm text-green-800">
        {saved ? t`Name colour saved.` : ''}
      </p>
      {error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
