import { NAME_COLOURS, type NameStyle } from '@parley/contract/billing';
import { Trans } from '@lingui/react/macro';

/** The premium badge beside a name. */
export function PremiumBadge() {
  return (
    <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      <Trans>Premium</Trans>
    </span>
  );
}

/**
 * A person's name as others see it: a premium member's chosen colour and badge, plain otherwise.
 * Only for light surfaces: the palette's contrast is checked against them (contract billing test).
 */
export function DisplayName({ name, style, colour = true }: { name: string; style?: NameStyle | undefined; colour?: boolean }) {
  const hex = colour && style?.nameColour ? NAME_COLOURS[style.nameColour] : undefined;
  return (
    <span className="inline-flex max-w-full min-w-0 items-center gap-1.5 align-middle">
      <span className="truncate" style={hex ? { color: hex } : undefined} data-name-colour={hex ? style?.nameColour : undefined}>
        {name}
      </span>
      {style?.badge && <PremiumBadge />}
    </span>
  );
}
