import { Fragment } from 'react';
import { revealHidden } from '@parley/contract/text';
import { useLingui } from '@lingui/react/macro';

/**
 * Text from another person with the characters that would hide or reorder it (bidirectional
 * overrides, zero-width characters, controls) shown as visible codes, so a message cannot
 * disguise a link or a file name. Isolated (`<bdi>`) so it cannot reorder what is around it.
 */
export function RevealedText({ text }: { text: string }) {
  const { t } = useLingui();
  const parts = revealHidden(text);
  return (
    <bdi>
      {parts.map((p, i) =>
        p.hidden ? (
          <abbr
            key={i}
            title={t`Hidden character`}
            className="mx-0.5 rounded bg-amber-100 px-1 font-mono text-xs text-amber-900 no-underline"
          >
            {p.text}
          </abbr>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </bdi>
  );
}
