import { GoogleSection } from './GoogleSection';
import { PasskeysSection } from './PasskeysSection';
import { RecoveryCodesSection } from './RecoveryCodesSection';
import { PasswordSection } from './PasswordSection';
import { TwoFactorSection } from './TwoFactorSection';

/** The sign-in sections of Settings; the app mounts them on the Settings page. */
export default function SecuritySettings() {
  return (
    <>
      <PasskeysSection />
      <TwoFactorSection />
      <RecoveryCodesSection />
      <PasswordSection />
      <GoogleSection />
    </>
  );
}
