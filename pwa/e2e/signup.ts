import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { Challenge } from 'altcha-lib';
import { solveProof } from '../../api/src/testing/proofOfWork';

/**
 * POST /api/auth/signup as the sign-up form sends it: a proof-of-work challenge is fetched and
 * solved first. Takes the same options as `request.post`, so a call reads like the plain POST.
 */
export async function postSignup(
  request: APIRequestContext,
  options: { data: Record<string, unknown>; headers?: Record<string, string> },
): Promise<APIResponse> {
  const res = await request.get('/api/auth/challenge', options.headers ? { headers: options.headers } : {});
  if (!res.ok()) throw new Error(`proof-of-work challenge: ${res.status()} ${await res.text()}`);
  const altcha = await solveProof((await res.json()) as Challenge);
  return request.post('/api/auth/signup', { ...options, data: { ...options.data, altcha } });
}
