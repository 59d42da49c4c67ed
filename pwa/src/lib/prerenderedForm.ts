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

let held: { route: string; form: HTMLFormElement; submitted: boolean } | null = null;

/**
 * At start, before the app renders over the pre-rendered markup of `route`: holds its form. A submit
 * is stopped (the markup has no script of its own; the form posts to no handler) and remembered.
 */
export function holdPrerenderedForm(root: HTMLElement, route: string): void {
  const form = root.querySelector('form');
  if (!form) return;
  const state = { route, form, submitted: false };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    state.submitted = true;
  });
  held = state;
}

/**
 * The held form of `route` as it stands now: read by the page's first render, while the markup is
 * still in place (the render and its commit run in one task, so nothing changes in between).
 */
export function prerenderedForm(route: string): PrerenderedForm | null {
  if (!held || held.route !== route) return null;
  const { form, submitted } = held;
  const values: Record<string, string> = {};
  for (const el of form.elements) if (el instanceof HTMLInputElement && el.name && el.value) values[el.name] = el.value;
  const active = document.activeElement;
  const focused =
    active instanceof HTMLInputElement && active.form === form && active.name
      ? { name: active.name, start: active.selectionStart, end: active.selectionEnd }
      : null;
  return { values, focused, submitted };
}

/** The app's form has taken over (its first mount): later visits to the page start clean. */
export function releasePrerenderedForm(): void {
  held = null;
}
