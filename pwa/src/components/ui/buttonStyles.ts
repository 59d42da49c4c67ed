export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus';

const variants = {
  primary: 'bg-accent text-accent-fg hover:bg-accent-hover',
  secondary: 'border border-line-strong bg-surface text-fg hover:bg-surface-hover',
  ghost: 'text-fg hover:bg-surface-hover',
  danger: 'bg-danger text-white hover:opacity-90',
} as const;
const sizes = { sm: 'min-h-9 px-3 text-body-sm', md: 'min-h-11 px-4 text-body' } as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/** The classes of a button (for a Link that looks like one). */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = '') {
  return `inline-flex items-center justify-center gap-2 rounded-control font-semibold transition-colors duration-(--duration-fast) disabled:opacity-60 ${variants[variant]} ${sizes[size]} ${focusRing} ${extra}`;
}

/** A form's full-width submit button. */
export const primaryButton = buttonClass('primary', 'md', 'w-full');
