import { Link } from '../../components/layout/Link';
import { Trans } from '@lingui/react/macro';

export function ContactSection() {
  return (
    <section id="contact" aria-labelledby="contact-title" className="bg-white py-20 md:py-28">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <div className="relative isolate overflow-hidden rounded-[2rem] bg-indigo-800 px-6 py-14 text-center shadow-xl sm:px-12 md:py-20">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(30rem_20rem_at_100%_0%,rgba(244,63,94,0.35),transparent_70%),radial-gradient(30rem_20rem_at_0%_100%,rgba(129,140,248,0.45),transparent_70%)]"
          />
          <h2 id="contact-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
            <Trans>Questions, ideas or something we should know?</Trans>
          </h2>
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-pretty text-indigo-100">
            <Trans>
              Whether you need a hand with your account, want to report a problem or have an idea for Parley, our support team is listening.
              A real person will read your message and get back to you by email.
            </Trans>
          </p>
          <Link
            to="/contact-support"
            className="mt-10 inline-flex rounded-full bg-white px-7 py-3.5 text-base font-semibold text-indigo-800 shadow-md hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <Trans>Contact us</Trans>
          </Link>
        </div>
      </div>
    </section>
  );
}
