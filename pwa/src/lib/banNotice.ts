import type { BanNotice } from '@parley/contract/safety';

/**
 * The ban or suspension the server announced as it ended this tab's connection: kept until the
 * sign-in screen, where signing out lands, shows it with the appeal link.
 */
let pending: BanNotice | null = null;

export function isBanNotice(x: unknown): x is BanNotice {
  const n = x as Partial<BanNotice> | null;
  return (
    typeof n?.message === 'string' &&
    typeof n.appealPath === 'string' &&
    n.appealPath.startsWith('/') &&
    !n.appealPath.startsWith('//') &&
    (n.until === null || typeof n.until === 'string')
  );
}

export function rememberBanNotice(notice: BanNotice): void {
  pending = notice;
}

/** Whether a notice waits to be shown (the session ended because of it). */
export function hasBanNotice(): boolean {
  return pending !== null;
}

/** The waiting notice (reading it twice, as React's strict mode does, gives the same one). */
export function peekBanNotice(): BanNotice | null {
  return pending;
}

/** Shown: a later visit to the sign-in screen starts clean. */
export function clearBanNotice(): void {
  pending = null;
}
