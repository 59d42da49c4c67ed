// The error messages the server answers with; those the product specification lists are kept word for word.
export const ERR = {
  missingCredentials: 'Missing Username or Password',
  unauthorized: 'Unauthorized',
  noServerResponse: 'No Server Response',
  usernameTaken: 'Username is taken',
  underage: 'You must be 18 or older to use Parley',
  tooManyAttempts: 'Too many sign-in attempts. Wait a few minutes and try again.',
  tooManySignups: 'Too many sign-ups from this network. Try again later.',
  notFound: 'Not found',
  payloadTooLarge: 'Request body is too large',
  internal: 'Something went wrong on our side. Please try again.',
  googleNotConfigured: 'Google sign-in is not configured on this server.',
  requestTimedOut: 'Request timed out',
  proofRequired: 'Parley is checking that you are not a bot. Wait a moment for the check to finish, then try again.',
  proofInvalid: 'The bot check did not pass. Wait for a new check to finish, then try again.',
  proofExpired: 'The bot check expired. Wait for a new check to finish, then try again.',
  proofUsed: 'This bot check was already used. Wait for a new check to finish, then try again.',
  accountSuspended: 'This account is suspended. Contact support if you think this is a mistake.',
} as const;

export type ErrorBody = { message: string; code: string };
