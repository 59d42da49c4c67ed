import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../api';
import { useCurrentUser } from '../hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/ui/buttonStyles';
import { toast } from '../../lib/toast';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const LINKS = [
  { to: '/profile', label: msg`Profile` },
  { to: '/settingboard', label: msg`Settings` },
  { to: '/missions', label: msg`Missions` },
  { to: '/store', label: msg`Store` },
  { to: '/premium-membership', label: msg`Premium` },
  { to: '/contact-support', label: msg`Contact support` },
] as const;

const item = `block w-full rounded-control px-3 py-2.5 text-start text-body font-medium text-fg hover:bg-surface-hover ${focusRing}`;

/**
 * The account menu at the end of the top bar: the user's avatar opens their places (profile,
 * settings, missions, store…) and Sign out. Esc, a click outside or a choice closes it.
 */
export function ProfileMenu() {
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [logout, { isLoading: signingOut }] = useLogoutMutation();
  const { i18n, t } = useLingui();

  // A page change (a link here or anywhere) closes it.
  const [openOn, setOpenOn] = useState(pathname);
  if (open && openOn !== pathname) setOpen(false);

  useEffect(() => {
    if (!open) return;
    wrapper.current?.querySelector<HTMLElement>('[data-menu-panel] a, [data-menu-panel] button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (e: PointerEvent) => !wrapper.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  async function signOut() {
    await logout();
    setOpen(false);
    toast({ title: t`Signed out`, description: t`See you soon.` });
    navigate('/dashboard', { replace: true });
  }

  if (!user) return null;
  return (
    <div ref={wrapper} className="relative">
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpenOn(pathname);
          setOpen((o) => !o);
        }}
        className={`inline-flex size-11 items-center justify-center rounded-full hover:bg-surface-hover ${focusRing}`}
      >
        <span className="sr-only">
          <Trans>Your account</Trans>
        </span>
        <span aria-hidden="true" className="contents">
          <Avatar name={user.username} src={user.avatar || null} size={32} />
        </span>
      </button>
      {open && (
        <div
          id={panelId}
          data-menu-panel
          className="absolute top-12 end-0 z-50 w-64 rounded-card border border-line bg-surface p-2 shadow-overlay"
        >
          <p className="truncate px-3 pt-1 pb-2 text-body-sm text-fg-muted">
            <Trans>
              Signed in as <span className="font-semibold text-fg">{user.username}</span>
            </Trans>
          </p>
          <nav aria-label={t`Your account`}>
            <ul className="grid">
              {LINKS.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className={item} aria-current={pathname === l.to ? 'page' : undefined}>
                    {i18n._(l.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-1 border-t border-line pt-1">
            <button type="button" onClick={() => void signOut()} disabled={signingOut} className={item}>
              {signingOut ? <Trans>Signing out…</Trans> : <Trans>Sign out</Trans>}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
