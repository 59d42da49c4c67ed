import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { MAX_AGE, MIN_AGE } from '@parley/contract/constants';
import { ERR } from '@parley/contract/errors';

/**
 * The account schemas' messages (contract/auth: the server answers a field with the same words) in
 * the interface language. A message this table does not know is shown as the schema wrote it.
 */
const MESSAGES: Record<string, MessageDescriptor> = {
  'Username is required': msg`Username is required`,
  'Username must be at least 3 characters': msg`Username must be at least 3 characters`,
  'Username must be at most 20 characters': msg`Username must be at most 20 characters`,
  'Username may use only letters, digits, _ and -': msg`Username may use only letters, digits, _ and -`,
  'This username is reserved; choose another': msg`This username is reserved; choose another`,
  [ERR.usernameTaken]: msg`Username is taken`,
  'Password is required': msg`Password is required`,
  'Password must be at least 8 characters': msg`Password must be at least 8 characters`,
  'Password must be at most 200 characters': msg`Password must be at most 200 characters`,
  // The gender choices are labelled Male, Female and Other wherever they are offered.
  'Gender must be male, female or other': msg`Choose Male, Female or Other`,
  'Age must be a whole number': msg`Age must be a whole number`,
  [`You must be ${MIN_AGE} or older to use Parley`]: msg`You must be 18 or older to use Parley`,
  [`Age must be at most ${MAX_AGE}`]: msg`Age must be at most 99`,
  'Email is required': msg`Email is required`,
  'Email must be at most 254 characters': msg`Email must be at most 254 characters`,
  'Enter an email address like name@example.com': msg`Enter an email address like name@example.com`,
};

/** A field's message in the interface language. */
export const fieldMessage = (message: string): string => (MESSAGES[message] ? i18n._(MESSAGES[message]) : message);
