import * as Menu from '@radix-ui/react-dropdown-menu';
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { focusRing } from './buttonStyles';

/**
 * The menu's root. Not modal by default: a menu button's page stays as it is for assistive
 * technology (a modal menu hides the rest with aria-hidden while it stays focusable); Esc, a
 * click outside or Tab still close it.
 */
export function DropdownMenu({ modal = false, ...rest }: ComponentPropsWithoutRef<typeof Menu.Root>) {
  return <Menu.Root modal={modal} {...rest} />;
}
/** The button that opens it (`asChild` to use the app's own button). */
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;

/**
 * The open menu in the app's look (Radix: arrow keys, typeahead, Esc gives focus back to its
 * button, a click outside closes it). Placed under its button, towards the end side.
 */
export function DropdownMenuContent({ children, label, align = 'end' }: { children: ReactNode; label?: string; align?: 'start' | 'end' }) {
  // In place rather than in a portal: the menu stays inside its button's landmark (the top bar).
  return (
    <Menu.Content
      align={align}
      sideOffset={6}
      collisionPadding={8}
      aria-label={label}
      className="z-50 w-64 max-w-[calc(100vw-1rem)] rounded-card border border-line bg-surface p-2 text-fg shadow-overlay outline-none"
    >
      {children}
    </Menu.Content>
  );
}

const itemClass = `flex min-h-11 w-full cursor-pointer items-center gap-2 rounded-control px-3 py-2 text-start text-body font-medium text-fg outline-none select-none data-[disabled]:cursor-default data-[disabled]:opacity-60 data-[highlighted]:bg-surface-hover ${focusRing}`;

type ItemProps = ComponentPropsWithoutRef<typeof Menu.Item> & { danger?: boolean };

/** One choice; `asChild` with a Link for a place to go (the menu closes on the way). */
export const DropdownMenuItem = forwardRef<HTMLDivElement, ItemProps>(function DropdownMenuItem({ className = '', danger, ...rest }, ref) {
  return <Menu.Item ref={ref} className={`${itemClass} ${danger ? 'text-danger-text' : ''} ${className}`} {...rest} />;
});

/** Text at the top of the menu that is not a choice (who is signed in). */
export function DropdownMenuLabel({ children }: { children: ReactNode }) {
  return <Menu.Label className="truncate px-3 pt-1 pb-2 text-body-sm text-fg-muted">{children}</Menu.Label>;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-line" />;
}
