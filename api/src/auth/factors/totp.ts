import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** 30-second steps, six digits, SHA-1: what every authenticator app reads from an otpauth:// link. */
const PERIOD_S = 30;
/** One step either side of now is accepted: clocks drift and people type slowly. */
const WINDOW = 1;

const totpOf = (secret: string, label = '') => new TOTP({ issuer: 'Parley', label, secret: Secret.fromBase32(secret), period: PERIOD_S });

/** A new random secret (160 bits), base32 as apps take it typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// link and its QR code (an SVG) for an authenticator app to scan. */
export async function totpEnrolment(secret: string, username: string): Promise<{ otpauthUrl: string; qrSvg: string }> {
  const otpauthUrl = totpOf(secret, username).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUrl, qrSvg };
}

/**
 * The time step a code belongs to, within one step of `now`, or null when it matches none. A
 * step at or before `lastStep` (the last one accepted for this secret) is refused: a code works once.
 */
export function acceptedStep(secret: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** The code of a secret at a time: for tests. */
export const totpCodeAt = (secret: string, at = Date.now()) => totpOf(secret).generate({ timestamp: at });
