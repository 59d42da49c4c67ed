import { ERR } from '@parley/contract/errors';
import { errorBody, isFetchBaseQueryError } from '../../lib/apiError';

/** The login screen's error catalogue. */
export function loginErrorMessage(error: unknown): string {
  if (!isFetchBaseQueryError(error)) return 'Login Failed';
  const { status } = error;
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return ERR.noServerResponse;
  // The bot check (asked for after failed sign-ins) says what to do; any other 400 is a missing field.
  if (status === 400) return errorBody(error).code?.startsWith('proof_') ? (errorBody(error).message ?? ERR.proofRequired) : ERR.missingCredentials;
  if (status === 401) return ERR.unauthorized;
  return errorBody(error).message ?? 'Login Failed';
}

/** Why the Google sign-in came back to /login (`?error=` set by the API's callback), for a person. */
export function googleSignInMessage(code: string | null): string {
  if (code === 'account_suspended') return ERR.accountSuspended;
  if (code === 'google_sign_in_failed') return 'Google sign-in did not complete. Try again, or sign in with your username and password.';
  return '';
}
