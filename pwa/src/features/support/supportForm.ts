import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { supportRequestSchema, type SupportRequest } from '@parley/contract/auth';
import { ERR } from '@parley/contract/errors';
import { errorBody, isFetchBaseQueryError } from '../../lib/apiError';
import { errorsFromIssues, errorsFromServer, type FormErrors } from '../../lib/form';

export type SupportField = keyof SupportRequest;
export type SupportDraft = Record<SupportField, string>;
export type SupportErrors = FormErrors<SupportField>;

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
  return { errors: errorsFromIssues<SupportField>(parsed.error.issues, (issue) => inLanguage(issue.message)) };
}

/** Turns a failed send into messages a person can act on, per field where the server said which. */
export function supportErrorsFrom(error: unknown): SupportErrors {
  return errorsFromServer<SupportField>(error, ['email', 'topic', 'message'], inLanguage, (err) => {
    if (isFetchBaseQueryError(err) && (err.status === 'FETCH_ERROR' || err.status === 'TIMEOUT_ERROR')) {
      const noResponse = ERR.noServerResponse;
      return i18n._(msg`${noResponse}. Check your connection and try again.`);
    }
    return errorBody(err).message ?? i18n._(msg`Something went wrong on our side. Please try again.`);
  });
}
