import { ERR } from '@parley/contract/errors';
import { errorBody, isFetchBaseQueryError } from '../../lib/apiError';

/** The login screen's error catalogue (spec 5 and 8). */
export function loginErrorMessage(error: unknown): string {
  if (!isFetchBaseQueryError(error)) return 'Login Failed';
  const { status } = error;
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return ERR.noServerResponse;
  if (status === 400) return ERR.missingCredentials;
  if (status === 401) return ERR.unauthorized;
  return errorBody(error).message ?? 'Login Failed';
}
