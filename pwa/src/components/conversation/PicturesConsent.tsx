import { useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';

const TONES = {
  light: { box: 'border-slate-200 bg-white text-slate-800', note: 'text-slate-700', input: 'accent-indigo-700' },
  dark: { box: 'border-slate-700 bg-slate-900 text-slate-100', note: 'text-slate-300', input: 'accent-indigo-400' },
} as const;

/**
 * "Allow pictures in this chat", beside a 1:1 chat's composer: this side's choice for this chat
 * alone, and where the partner stands (they would like to share pictures, or have not allowed them
 * yet). Either side may turn it off at any time.
 */
export function PicturesConsent({
  mine,
  theirs,
  partnerName,
  onChange,
  tone = 'light',
}: {
  mine: boolean;
  theirs: boolean;
  partnerName: string;
  /** Resolves false when it could not be changed (said by the room). */
  onChange(on: boolean): Promise<boolean>;
  tone?: keyof typeof TONES;
}) {
  const { t } = useLingui();
  const id = useId();
  // The choice shows at once; the server's word (who allows them now) settles it.
  const [asked, setAsked] = useState<boolean | null>(null);
  const checked = asked ?? mine;
  const look = TONES[tone];
  const note =
    mine && theirs
      ? t`Pictures are on in this chat. Pictures from ${partnerName} stay blurred until you tap them.`
      : theirs
        ? t`${partnerName} would like to share pictures. Allow them too to send and see pictures.`
        : mine
          ? t`Waiting for ${partnerName} to allow pictures too.`
          : null;
  return (
    <div className={`flex flex-wrap items-center gap-x-3 gap-y-1 border-t px-3 py-1.5 ${look.box}`} data-testid="pictures-consent">
      <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-semibold">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          aria-describedby={note ? `${id}-note` : undefined}
          onChange={(e) => {
            const on = e.target.checked;
            setAsked(on);
            void onChange(on).finally(() => setAsked(null));
          }}
          className={`size-5 shrink-0 ${look.input}`}
        />
        <Trans>Allow pictures in this chat</Trans>
      </label>
      <p id={`${id}-note`} aria-live="polite" className={`min-w-0 flex-1 basis-48 text-sm ${look.note}`}>
        {note}
      </p>
    </div>
  );
}
