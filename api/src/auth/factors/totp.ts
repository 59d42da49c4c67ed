import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type * as OtpAuth from 'otpauth';
import type QRCode from 'qrcode';
import { lazyRequire } from '../../platform/lazyRequire.ts';

// Loaded on first use: few processes ever see an authenticator set up or a code typed.
const otpauth = () => lazyRequire('otpauth') as typeof OtpAuth;
const qrcode = () => lazyRequire('qrcode') as typeof QRCode;

/** 30-second steps, six digits, SHA-1: what every authenticator app reads from an otpauth:// link. */
const PERIOD_S = 30;
/** One step either side of now is accepted: clocks drift and people type slowly. */
const WINDOW = 1;

const totpOf = (secret: string, label = '') => {
  const { Secret, TOTP } = otpauth();
  return new TOTP({ issuer: 'Parley', label, secret: Secret.fromBase32(secret), period: PERIOD_S });
};

/** A new random secret (160 bits), base32 as apps take it typed in. */
export function newTotpSecret(): string {
  return new (otpauth().Secret)({ size: 20 }).base32;
}

/** The otpauth:// link and its QR code (an SVG) for an authenticator app to scan. */
export async function totpEnrolment(secret: string, username: string): Promise<{ otpauthUrl: string; qrSvg: string }> {
  const otpauthUrl = totpOf(secret, username).toString();
  const qrSvg = await qrcode().toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
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

/**
 * Authenticator secrets are kept sealed (AES-256-GCM under a key derived from the server's secret):
 * a copy of the database alone cannot make codes.
 */
export function totpSealer(jwtSecret: Uint8Array) {
  const key = createHmac('sha256', jwtSecret).update('parley totp secrets v1').digest();
  return {
    seal(secret: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(stored: string): string {
      const raw = Buffer.from(stored.slice(3), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
