/** What to tell a person when the browser's passkey prompt did not finish. */
export function passkeyErrorMessage(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey prompt was closed before it finished. Try again.';
  if (name === 'InvalidStateError') return 'This device already has a passkey for your account.';
  if (name === 'SecurityError') return 'Passkeys are not available on this address.';
  return 'The passkey could not be used. Try again.';
}
