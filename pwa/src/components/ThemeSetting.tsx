import { THEME_CHOICES, useThemeChoice, type ThemeChoice } from '../lib/theme';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const LABELS: Record<ThemeChoice, { label: MessageDescriptor; hint: MessageDescriptor }> = {
  system: { label: msg`System`, hint: msg`Follows this device: light by day, dark when it is set to dark.` },
  light: { label: msg`Light`, hint: msg`Always light.` },
  dark: { label: msg`Dark`, hint: msg`Always dark.` },
};

/** The theme choice (System, Light, Dark): applied at once, remembered on this device. */
export function ThemeSetting() {
  const [choice, setChoice] = useThemeChoice();
  const { i18n } = useLingui();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-body-sm font-medium text-fg">
        <Trans>Theme</Trans>
      </legend>
      {THEME_CHOICES.map((c) => (
        <label key={c} className="flex min-h-11 cursor-pointer items-start gap-3 rounded-control px-1 py-1 text-body text-fg">
          <input
            type="radio"
            name="theme"
            value={c}
            checked={choice === c}
            onChange={() => setChoice(c)}
            className="mt-1 size-5 accent-(--color-accent-text)"
          />
          <span>
            {i18n._(LABELS[c].label)}
            <span className="block text-body-sm text-fg-muted">{i18n._(LABELS[c].hint)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
