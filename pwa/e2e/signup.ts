import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { Challenge } from 'altcha-lib';
import { solveProof } from '../../api/src/testing/proofOfWork';

/**
 * POST /api/auth/signup as the sign-up form sends it: a proof-of-work challenge is fetched and
 * solved first. Takes the options of `request.post`, so a call reads like the plain POST.
 */
export async function postSignup(request: APIRequestContext, options: Options): Promise<APIResponse> {
  return request.post('/api/auth/signup', { ...options, data: { ...options.data, altcha: await proof(request, options) } });
}

/**
 * POST /api/auth/login with a solved proof of work. Every spec runs from one address, so after a
 * few failed sign-ins anywhere in the suite the server asks for one, as it would of a guesser.
 */
export async function postLogin(request: APIRequestContext, options: Options): Promise<APIResponse> {
  return request.post('/api/auth/login', { ...options, data: { ...options.data, altcha: await proof(request, options) } });
}

type Options = { data: Record<string, unknown>; headers?: Record<string, string> };

async function proof(request: APIRequestContext, options: Options): Promise<string> {
  const res = await request.get('/api/auth/challenge', options.headers ? { headers: options.headers } : {});
  if (!res.ok()) throw new Error(`proof-of-work challenge: ${res.status()} ${await res.text()}`);
  return solveProof((await res.json()) as Challenge);
}
