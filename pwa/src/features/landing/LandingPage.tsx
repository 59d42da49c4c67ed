import { useViewportLayout } from '../../components/layout/useViewportLayout';
import { ContactSection } from './ContactSection';
import { FeaturesSection } from './FeaturesSection';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';
import { MissionSection } from './MissionSection';
import { useSectionHandoff } from './useSectionHandoff';
import { useLingui } from '@lingui/react/macro';
import { DocumentTitle } from '../../components/DocumentTitle';
import { useEffect } from 'react';
import { prerenderedReplaced } from '../../lib/prerenderedForm';

/** The landing page `/`: Hero, Our Mission, Features, Contact, in that order. */
export default function LandingPage() {
  const { isMobile, resizing } = useViewportLayout();
  useSectionHandoff();
  const { t } = useLingui();
  // Pre-rendered at build time; the island or the app renders it again over that markup.
  useEffect(prerenderedReplaced, []);
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
