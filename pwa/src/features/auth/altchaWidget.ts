// The altcha widget without its inlined workers: the proof-of-work worker is bundled by Vite and
// served from Parley's own origin, so the page needs no third-party script and no blob: worker.
import 'altcha/external';
import 'altcha/altcha.css';
import ShaWorker from 'altcha/workers/sha?worker';
import type { Strings } from 'altcha/types';

for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) globalThis.$altcha.algorithms.set(algorithm, () => new ShaWorker());

/** The widget's texts in the interface language: registered under the locale it is shown in (its `language`). */
export function setAltchaStrings(language: string, strings: Strings) {
  globalThis.$altcha.i18n.set(language, { ...strings });
}
