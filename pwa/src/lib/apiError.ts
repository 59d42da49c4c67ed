import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** The server's error body: `{ message, code }`, with per-field messages on a validation failure. */
export type ApiErrorBody = { message?: string; code?: string; fields?: Record<string, string> };

export function isFetchBaseQueryError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** The HTTP status of a failed call, or null when no answer came back (network, timeout). */
export function httpStatus(error: unknown): number | null {
  if (!isFetchBaseQueryError(error)) return null;
  if (typeof error.status === 'number') return error.status;
  return error.status === 'PARSING_ERROR' ? error.originalStatus : null;
}

export function errorBody(error: unknown): ApiErrorBody {
  if (!isFetchBaseQueryError(error) || typeof error.status !== 'number') return {};
  const data = error.data;
  return data && typeof data === 'object' ? (data as ApiErrorBody) : {};
}

/** A sentence a person can read for any failed call. */
export function describeApiError(
  error: FetchBaseQueryError | SerializedError | unknown,
  fallback = 'Something went wrong. Please try again.',
): string {
  if (isFetchBaseQueryError(error)) {
    if (error.status === 'FETCH_ERROR') return 'No Server Response';
    if (error.status === 'TIMEOUT_ERROR') return 'The server took too long to answer. Please try again.';
    const message = errorBody(error).message;
    if (message) return message;
  }
  return fallback;
}
