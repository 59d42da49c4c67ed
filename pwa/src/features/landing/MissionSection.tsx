import { AppPreview } from './AppPreview';
import { Trans } from '@lingui/react/macro';

export function MissionSection({ isMobile, resizing }: { isMobile: boolean | null; resizing: boolean }) {
  return (
    <section id="mission" aria-labelledby="mission-title" className="bg-white pt-24 pb-20 md:pt-28 md:pb-28">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="mission-title" className="text-sm font-semibold tracking-wide text-indigo-700 uppercase">
          <Trans>Our Mission</Trans>
        </h2>
        <p className="mt-3 text-3xl font-bold tracking-tight text-balance text-slate-950 sm:text-4xl">
          <Trans>Every good friendship started with a stranger saying hello.</Trans>
        </p>
        <p className="mt-6 text-lg leading-relaxed text-pretty text-slate-700">
          <Trans>
            We think the internet is at its best when it introduces you to someone you would never have met otherwise. Parley exists to make
            that first hello easy, safe and worth your time: no endless feeds and no follower counts, just two people and a conversation.
          </Trans>
        </p>
        <p className="mt-4 text-lg leading-relaxed text-pretty text-slate-700">
          <Trans>
            Pick a few interests, choose text or video, and we find you someone to talk to in seconds. If a chat isn’t for you, skip it. If
            it is, add them as a friend and carry on tomorrow.
          </Trans>
        </p>
      </div>
      <div className="mt-14 px-4 sm:px-6">
        <AppPreview isMobile={isMobile} resizing={resizing} />
      </div>
    </section>
  );
}
