import { Link } from '../../components/layout/Link';
import { LogoMark } from '../../components/layout/Logo';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LanguageChooser } from '../../components/LanguageChooser';

const links = [
  { to: '/privacy-policy', label: msg`Privacy Policy` },
  { to: '/terms-of-service', label: msg`Terms of Service` },
  { to: '/rules', label: msg`Community Rules` },
  { to: '/contact-support', label: msg`Contact support` },
];

export function LandingFooter() {
  const { i18n, t } = useLingui();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <LogoMark className="size-6" />
          <span>
            <Trans>© 2026 Parley. Made for good conversations.</Trans>
          </span>
        </p>
        <LanguageChooser className="max-w-56" />
        <nav aria-label={t`Legal and support`}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {links.map((l) => (
              <li key={l.to}>
                <Link
                  to={l.to}
                  className="font-medium text-slate-700 underline-offset-4 hover:text-indigo-800 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-700"
                >
                  {i18n._(l.label)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
