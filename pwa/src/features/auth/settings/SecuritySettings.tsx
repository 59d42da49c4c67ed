import { PasskeysSection } from './PasskeysSection';
import { RecoveryCodesSection } from './RecoveryCodesSection';
import { SetPasswordSection } from './SetPasswordSection';
import { TwoFactorSection } from './TwoFactorSection';

/** The sign-in sections of Settings; the app mounts them on the Settings page. */
export default function SecuritySettings() {
  return (
    <>
      <PasskeysSection />
      <TwoFactorSection />
      <RecoveryCodesSection />
      <SetPasswordSection />
    </>
  );
}
