import { useViewportLayout } from '../../components/layout/useViewportLayout';
import { ContactSection } from './ContactSection';
import { FeaturesSection } from './FeaturesSection';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';
import { MissionSection } from './MissionSection';
import { useSectionHandoff } from './useSectionHandoff';
import { useLingui } from '@lingui/react/macro';
import { DocumentTitle } from '../../components/DocumentTitle';

/** The landing page `/`: Hero, Our Mission, Features, Contact, in that order. */
export default function LandingPage() {
  const { isMobile, resizing } = useViewportLayout();
  useSectionHandoff();
  const { t } = useLingui();
  return (
    <>
      <DocumentTitle title={t`Parley: meet new people`} />
      <main id="main">
        <Hero />
        <MissionSection isMobile={isMobile} resizing={resizing} />
        <FeaturesSection />
        <ContactSection />
      </main>
      <LandingFooter />
    </>
  );
}
