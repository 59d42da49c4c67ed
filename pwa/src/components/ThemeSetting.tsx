import { THEME_CHOICES, useThemeChoice, type ThemeChoice } from '../lib/theme';

const LABELS: Record<ThemeChoice, { label: string; hint: string }> = {
  system: { label: 'System', hint: 'Follows this device: light by day, dark when it is set to dark.' },
  light: { label: 'Light', hint: 'Always light.' },
  dark: { label: 'Dark', hint: 'Always dark.' },
};

/** The theme choice (System, Light, Dark): applied at once, remembered on this device. */
export function ThemeSetting() {
  const [choice, setChoice] = useThemeChoice();
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-body-sm font-medium text-fg">Theme</legend>
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
            {LABELS[c].label}
            <span className="block text-body-sm text-fg-muted">{LABELS[c].hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
