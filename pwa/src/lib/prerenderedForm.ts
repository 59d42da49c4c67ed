/**
 * A pre-rendered page's form (vite-plugin-prerender.ts: `/login`) can be used before the app has
 * loaded: the visitor may type, focus a field and even press Enter. When the app's first render
 * replaces that markup, what was typed, where the caret was and a submit that was asked for carry
 * over to the app's form instead of being lost.
 */

export type PrerenderedForm = {
  /** What the visitor typed, by field name. */
  values: Record<string, string>;
  /** The field that had the focus, and its selection. */
  focused: { name: string; start: number | null; end: number | null } | null;
  /** Whether Enter or the submit button was pressed before the app could act on it. */
  submitted: boolean;
};

/** The form being held: where it is, whether a submit was asked for, and the field last focused. */
type Held = { root: HTMLElement; route: string; form: HTMLFormElement; submitted: boolean; focused: HTMLInputElement | null };

let held: Held | null = null;

/**
 * At start, before the app renders over the pre-rendered markup of `route`: holds its form. A submit
 * is stopped (the markup has no script of its own; the form posts to no handler) and remembered.
 */
export function holdPrerenderedForm(root: HTMLElement, route: string): void {
  // The page's own form, marked `data-carry-over` (the top bar holds a form too).
  const form = root.querySelector<HTMLFormElement>('form[data-carry-over]');
  if (!form) return;
  const state: Held = { root, route, form, submitted: false, focused: null };
  // The field last focused: once the markup is replaced, focus has left it for the page itself.
  form.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLInputElement) state.focused = e.target;
  });
  form.addEventListener('focusout', (e) => {
    if (form.isConnected && !form.contains(e.relatedTarget as Node | null)) state.focused = null;
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    state.submitted = true;
  });
  held = state;
}

/**
 * The held form of `route` as it stands now: read by the page's first render, and again in the
 * commit that replaces the markup (the fields keep their values once detached; the focus is the
 * field that had it last).
 */
export function prerenderedForm(route: string): PrerenderedForm | null {
  if (!held || held.route !== route) return null;
  const { form, submitted } = held;
  const values: Record<string, string> = {};
  for (const el of form.elements) if (el instanceof HTMLInputElement && el.name && el.value) values[el.name] = el.value;
  const active = form.isConnected ? document.activeElement : held.focused;
  const focused =
    active instanceof HTMLInputElement && active.form === form && active.name
      ? { name: active.name, start: active.selectionStart, end: active.selectionEnd }
      : null;
  return { values, focused, submitted };
}

/**
 * The app's form has taken over (its first mount): later visits to the page start clean, and the
 * root no longer says it holds pre-rendered markup (what waits for the app can wait for that).
 */
export function releasePrerenderedForm(): void {
  prerenderedReplaced();
  held = null;
}

/**
 * A pre-rendered page's own component calls this once it has replaced the markup: the root no
 * longer says it holds pre-rendered markup (what waits for the page to be live can wait for that).
 */
export function prerenderedReplaced(): void {
  document.getElementById('root')?.removeAttribute('data-prerendered');
}

let earlyLanguage: string | null = null;

/**
 * At start, over pre-rendered markup: a language chosen in its chooser (`select[data-language-chooser]`)
 * before the app took over is remembered, for the app's chooser to apply as it mounts. Only that
 * pre-rendered element is listened to: the app's own chooser, which replaces it, acts by itself.
 */
export function holdPrerenderedLanguage(root: HTMLElement): void {
  root.querySelector('select[data-language-chooser]')?.addEventListener('change', (e) => {
    earlyLanguage = (e.target as HTMLSelectElement).value;
  });
}

/** The language chosen on the pre-rendered page, once (null when none was). */
export function takePrerenderedLanguage(): string | null {
  const chosen = earlyLanguage;
  earlyLanguage = null;
  return chosen;
}
