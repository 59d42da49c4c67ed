// A .po catalog, compiled to a module by Lingui's Vite plugin.
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
