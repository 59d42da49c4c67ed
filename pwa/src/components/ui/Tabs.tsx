import * as TabsPrimitive from '@radix-ui/react-tabs';
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { focusRing } from './buttonStyles';

/** Tabs (Radix: arrow keys move between tabs, each panel labelled by its tab). `value`/`onValueChange` to hold the choice. */
export const Tabs = TabsPrimitive.Root;

/** The row of tabs; it scrolls sideways on a narrow screen rather than wrapping. */
export const TabsList = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof TabsPrimitive.List>>(function TabsList(
  { className = '', ...rest },
  ref,
) {
  return (
    <TabsPrimitive.List
      ref={ref}
      className={`flex gap-1 overflow-x-auto rounded-control border border-line bg-surface-muted p-1 ${className}`}
      {...rest}
    />
  );
});

export const TabsTrigger = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof TabsPrimitive.Trigger>>(function TabsTrigger(
  { className = '', ...rest },
  ref,
) {
  return (
    <TabsPrimitive.Trigger
      ref={ref}
      className={`inline-flex min-h-10 shrink-0 items-center justify-center gap-2 rounded-control px-4 text-body-sm font-semibold whitespace-nowrap text-fg-muted hover:text-fg data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-raised ${focusRing} ${className}`}
      {...rest}
    />
  );
});

export const TabsContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof TabsPrimitive.Content>>(function TabsContent(
  { className = '', ...rest },
  ref,
) {
  return <TabsPrimitive.Content ref={ref} className={`mt-4 rounded-control ${focusRing} ${className}`} {...rest} />;
});
