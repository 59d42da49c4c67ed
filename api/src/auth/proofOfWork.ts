import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { ERR } from '@parley/contract/errors';
import { POW_CHALLENGE_TTL_S } from '@parley/contract/constants';
import { SAFETY_ERR } from '@parley/contract/safety';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../platform/errors.ts';

/** SHA-256 runs natively in every browser's WebCrypto, so a person's device pays little and a script pays per account. */
const ALGORITHM = 'SHA-256';

const refuse = (message: string, code: string) => new DomainError('invalid', message, code);

/**
 * How many times the usual work a sign-up linked to a banned account's network or device pays:
 * seconds for a person, once; a real cost for someone making account after account.
 */
export const HARD_POW_FACTOR = 30;
/** The challenge's signed data names the work it was made for, so an easy solution cannot stand in for a hard one. */
const HARD = 'hard';

/** The widget's payload: base64 JSON of the challenge it was given and the counter it found. */
function decodePayload(payload: string): { challenge: Challenge; solution: Solution } | undefined {
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
    const { challenge, solution } = decoded;
    if (!challenge?.parameters || typeof challenge.signature !== 'string') return undefined;
    if (typeof solution?.counter !== 'number' || typeof solution.derivedKey !== 'string') return undefined;
    return { challenge, solution };
  } catch {
    return undefined;
  }
}

/**
 * Self-hosted proof of work (altcha): challenges are HMAC-signed and expire, so the server keeps
 * nothing per challenge; a solution is remembered as used until its challenge expires, in the
 * shared rate-limit store, so it cannot be replayed on any process.
 */
export function proofOfWork(deps: Pick<AppDeps, 'cfg' | 'secrets' | 'limiters'>, now = () => Date.now()) {
  // Keys of their own, so a challenge signature can never stand in for a token or a receipt.
  const derive = (label: string) => createHmac('sha256', deps.secrets.jwtSecret).update(label).digest('base64url');
  const hmacSignatureSecret = derive('parley proof of work v1');
  const hmacKeySignatureSecret = derive('parley proof of work keys v1');
  const difficulty = deps.cfg.POW_DIFFICULTY;
  const used = deps.limiters.create({ keyPrefix: 'pow-used', points: 1, durationSeconds: POW_CHALLENGE_TTL_S });

  return {
    /** A fresh challenge: the counter to find is random around the configured difficulty (HARD_POW_FACTOR × for `hard`). */
    challenge(hard = false): Promise<Challenge> {
      const work = hard ? difficulty * HARD_POW_FACTOR : difficulty;
      return createChallenge({
        algorithm: ALGORITHM,
        cost: 1,
        counter: randomInt(Math.round(work * 1.5), Math.max(1, Math.round(work / 2))),
        ...(hard ? { data: { work: HARD } } : {}),
        deriveKey,
        expiresAt: new Date(now() + POW_CHALLENGE_TTL_S * 1000),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },

    /**
     * Accepts a payload once: missing, forged, expired or already used → 400 saying what to do.
     * `hard`: only a solved hard challenge will do (the page fetches one and tries again).
     */
    async verify(payload: string | undefined, hard = false): Promise<void> {
      if (!payload) throw refuse(ERR.proofRequired, 'proof_required');
      const decoded = decodePayload(payload);
      if (!decoded) throw refuse(ERR.proofInvalid, 'proof_invalid');
      const expiresAt = decoded.challenge.parameters.expiresAt;
      // The library compares with the wall clock; the injected clock keeps expiry testable.
      if (typeof expiresAt !== 'number' || expiresAt * 1000 <= now()) throw refuse(ERR.proofExpired, 'proof_expired');
      const result = await verifySolution({ ...decoded, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
      if (result.expired) throw refuse(ERR.proofExpired, 'proof_expired');
      if (!result.verified) throw refuse(ERR.proofInvalid, 'proof_invalid');
      if (hard && decoded.challenge.parameters.data?.work !== HARD) throw refuse(SAFETY_ERR.harderProof, 'proof_harder');
      // The signature names one challenge; taking its only point marks it used across processes.
      const first = await used.take(decoded.challenge.signature!);
      if (!first.ok) throw refuse(ERR.proofUsed, 'proof_used');
    },
  };
}

export type ProofOfWork = ReturnType<typeof proofOfWork>;
