import { supportRequestSchema, type SupportRequest } from '@parley/contract/auth';
import { ERR } from '@parley/contract/errors';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

export type SupportField = keyof SupportRequest;
export type SupportDraft = Record<SupportField, string>;
export type SupportErrors = Partial<Record<SupportField | 'form', string>>;

export const SUPPORT_TOPICS: ReadonlyArray<{ value: SupportRequest['topic']; label: string }> = [
  { value: 'account', label: 'My account or signing in' },
  { value: 'safety', label: 'Safety: report a person or a problem' },
  { value: 'billing', label: 'Payments, premium or donations' },
  { value: 'bug', label: 'Something is not working' },
  { value: 'other', label: 'Something else' },
];

export const emptyDraft: SupportDraft = { email: '', topic: '', message: '' };

/** Checks the draft with the server's own schema: the request, or a message per field. */
export function validateSupportDraft(draft: SupportDraft): { request: SupportRequest } | { errors: SupportErrors } {
  const parsed = supportRequestSchema.safeParse({ ...draft, email: draft.email.trim() });
  if (parsed.success) return { request: parsed.data };
  const errors: SupportErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as SupportField;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/** Turns a failed send into messages a person can act on, per field where the server said which. */
export function supportErrorsFrom(error: FetchBaseQueryError | SerializedError): SupportErrors {
  if (!('status' in error)) return { form: ERR.internal };
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    return { form: `${ERR.noServerResponse}. Check your connection and try again.` };
  }
  const body = (error.data ?? {}) as { message?: string; fields?: Record<string, string> };
  if (error.status === 400 && body.fields) {
    const errors: SupportErrors = {};
    for (const [field, message] of Object.entries(body.fields)) {
      if (field === 'email' || field === 'topic' || field === 'message') errors[field] = message;
    }
    if (Object.keys(errors).length) return errors;
  }
  return { form: body.message ?? ERR.internal };
}
