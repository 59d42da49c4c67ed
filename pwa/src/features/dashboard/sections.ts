import type { MessageDescriptor } from '@lingui/core';
import type { ComponentType } from 'react';

/**
 * One section of the dashboard home. The app lists them (app/dashboardSections.tsx) in the order
 * they show; a feature hands its section's component to that list, so the dashboard imports no
 * other feature. A section whose feature is not built yet says so (`coming`) instead of showing a
 * card dressed as a working one.
 */
export type DashboardSection = {
  /** Stable id: the section's element id and test hook (`dashboard-<id>`). */
  id: string;
  /** Its heading (h2): words, or a message (`msg`) said in the interface's language. */
  title: string | MessageDescriptor;
  /** Shown to signed-in users only (the default) or to visitors as well. */
  audience?: 'signedIn' | 'everyone';
} & (
  | {
      /**
       * The working section: renders its own content and its own empty state ("No friends online
       * yet"). Usually lazy (React.lazy), so its code loads with the dashboard, not the first page.
       */
      Component: ComponentType;
      coming?: never;
    }
  | {
      /** Not built yet: one honest sentence about what will be here. */
      coming: string | MessageDescriptor;
      Component?: never;
    }
);
