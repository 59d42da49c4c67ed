import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { supportRequestSchema, type SupportRequest } from '@parley/contract/auth';
import { ERR } from '@parley/contract/errors';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

export type SupportField = keyof SupportRequest;
export type SupportDraft = Record<SupportField, string>;
export type SupportErrors = Partial<Record<SupportField | 'form', string>>;

const TOPICS: ReadonlyArray<{ value: SupportRequest['topic']; label: MessageDescriptor }> = [
  { value: 'account', label: msg`My account or signing in` },
  { value: 'safety', label: msg`Safety: report a person or a problem` },
  { value: 'billing', label: msg`Payments, premium or donations` },
  { value: 'bug', label: msg`Something is not working` },
  { value: 'other', label: msg`Something else` },
];

/** The topics a person chooses from, in the interface language. */
export const supportTopics = () => TOPICS.map((t) => ({ value: t.value, label: i18n._(t.label) }));

export const emptyDraft: SupportDraft = { email: '', topic: '', message: '' };

/**
 * The schema's messages (contract/auth, the server's own words) in the interface language; a
 * message this table does not know is shown as the schema wrote it.
 */
const FIELD_MESSAGES: Record<string, MessageDescriptor> = {
  'Enter a valid email address': msg`Enter a valid email address`,
  'Choose a topic': msg`Choose a topic`,
  'Tell us a little more (at least 10 characters)': msg`Tell us a little more (at least 10 characters)`,
  'Message must be at most 5000 characters': msg`Message must be at most 5000 characters`,
};
const inLanguage = (message: string) => (FIELD_MESSAGES[message] ? i18n._(FIELD_MESSAGES[message]) : message);

/** Checks the draft with the server's own schema: the request, or a message per field. */
export function validateSupportDraft(draft: SupportDraft): { request: SupportRequest } | { errors: SupportErrors } {
  const parsed = supportRequestSchema.safeParse({ ...draft, email: draft.email.trim() });
  if (parsed.success) return { request: parsed.data };
  const errors: SupportErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as SupportField;
    errors[field] ??= inLanguage(issue.message);
  }
  return { errors };
}

/** Turns a failed send into messages a person can act on, per field where the server said which. */
export function supportErrorsFrom(error: FetchBaseQueryError | SerializedError): SupportErrors {
  const internal = () => i18n._(msg`Something went wrong on our side. Please try again.`);
  if (!('status' in error)) return { form: internal() };
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    const noResponse = ERR.noServerResponse;
    return { form: i18n._(msg`${noResponse}. Check your connection and try again.`) };
  }
  const body = (error.data ?? {}) as { message?: string; fields?: Record<string, string> };
  if (error.status === 400 && body.fields) {
    const errors: SupportErrors = {};
    for (const [field, message] of Object.entries(body.fields)) {
      if (field === 'email' || field === 'topic' || field === 'message') errors[field] = inLanguage(message);
    }
    if (Object.keys(errors).length) return errors;
  }
  return { form: body.message ?? internal() };
}
