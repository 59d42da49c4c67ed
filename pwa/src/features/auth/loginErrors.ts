import { ERR } from '@parley/contract/errors';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { errorBody, isFetchBaseQueryError } from '../../lib/apiError';

/** The login screen's error catalogue; the product specification's messages stay in its English words. */
export function loginErrorMessage(error: unknown): string {
  if (!isFetchBaseQueryError(error)) return i18n._(msg`Login Failed`);
  const { status } = error;
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return ERR.noServerResponse;
  // The bot check (asked for after failed sign-ins) says what to do; any other 400 is a missing field.
  if (status === 400)
    return errorBody(error).code?.startsWith('proof_') ? (errorBody(error).message ?? ERR.proofRequired) : ERR.missingCredentials;
  if (status === 401) return ERR.unauthorized;
  return errorBody(error).message ?? i18n._(msg`Login Failed`);
}

/** Why the Google sign-in came back to /login (`?error=` set by the API's callback), for a person. */
export function googleSignInMessage(code: string | null): string {
  if (code === 'account_suspended') return i18n._(msg`This account is suspended. Contact support if you think this is a mistake.`);
  if (code === 'google_sign_in_failed')
    return i18n._(msg`Google sign-in did not complete. Try again, or sign in with your username and password.`);
  return '';
}
