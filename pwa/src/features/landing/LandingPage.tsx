import { useViewportLayout } from '../../components/layout/useViewportLayout';
import { ContactSection } from './ContactSection';
import { FeaturesSection } from './FeaturesSection';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';
import { MissionSection } from './MissionSection';
import { useSectionHandoff } from './useSectionHandoff';

/** The landing page `/`: Hero, Our Mission, Features, Contact, in that order. */
export default function LandingPage() {
  const { isMobile, resizing } = useViewportLayout();
  useSectionHandoff();
  return (
    <>
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
