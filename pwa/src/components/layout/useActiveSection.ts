import { useEffect, useState } from 'react';
import { LANDING_SECTIONS, type SectionId } from './sections';

/** The probe line sits this far down the viewport: the section under it is the one being read. */
const PROBE_RATIO = 0.4;

function sectionInView(): SectionId | null {
  const probe = window.innerHeight * PROBE_RATIO;
  // At the very bottom the last section may be too short to reach the probe line.
  const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
  let current: SectionId | null = null;
  for (const { id } of LANDING_SECTIONS) {
    const el = document.getElementById(id);
    if (!el) continue;
    if (el.getBoundingClientRect().top <= probe) current = id;
  }
  if (atBottom && document.getElementById('contact')) return 'contact';
  return current;
}

/** Which landing section is in view, following scroll and resize; null when disabled. */
export function useActiveSection(enabled: boolean): SectionId | null {
  const [active, setActive] = useState<SectionId | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      setActive(sectionInView());
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    // The landing page may render after the bar: look again once the DOM settles.
    schedule();
    const observer = new MutationObserver(schedule);
    const root = document.getElementById('root') ?? document.body;
    observer.observe(root, { childList: true, subtree: true });
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [enabled]);

  return enabled ? active : null;
}
