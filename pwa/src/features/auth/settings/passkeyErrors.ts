import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** What to tell a person when the browser's passkey prompt did not finish (in the interface language). */
export function passkeyErrorMessage(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return i18n._(msg`The passkey prompt was closed before it finished. Try again.`);
  if (name === 'InvalidStateError') return i18n._(msg`This device already has a passkey for your account.`);
  if (name === 'SecurityError') return i18n._(msg`Passkeys are not available on this address.`);
  return i18n._(msg`The passkey could not be used. Try again.`);
}
