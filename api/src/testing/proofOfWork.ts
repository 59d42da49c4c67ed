import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/**
 * Solves a proof-of-work challenge as the altcha widget does and answers the payload the sign-up
 * and sign-in forms send; shared by the API tests, the e2e specs and the benchmarks.
 */
export async function solveProof(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof-of-work challenge could not be solved in time');
  const { codeChallenge: _, ...rest } = challenge;
  return Buffer.from(JSON.stringify({ challenge: rest, solution })).toString('base64');
}

/** Fetches a challenge from a running server (base URL) and solves it. */
export async function proofFrom(baseUrl: string, init: RequestInit = {}, query?: URLSearchParams): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/challenge${query ? `?${query}` : ''}`, init);
  if (res.status !== 200) throw new Error(`challenge: ${res.status} ${await res.text()}`);
  return solveProof((await res.json()) as Challenge);
}

/**
 * POST /api/auth/signup with a solved proof of work, as the sign-up form sends it: the challenge
 * is asked for a sign-up, naming the body's device fingerprint (a linked one is the hard one).
 */
export async function signupAt(baseUrl: string, body: Record<string, unknown>, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json');
  const query = new URLSearchParams({
    purpose: 'signup',
    ...(typeof body.fingerprint === 'string' ? { fingerprint: body.fingerprint } : {}),
  });
  const altcha = await proofFrom(baseUrl, { headers: init.headers ?? {} }, query);
  return fetch(`${baseUrl}/api/auth/signup`, { ...init, method: 'POST', headers, body: JSON.stringify({ altcha, ...body }) });
}
