import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../../store/api';
import { useCurrentUser } from '../../store/hooks';
import { Avatar } from '../../components/Avatar';
import { focusRing } from '../../components/ui/buttonStyles';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/DropdownMenu';
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

/**
 * The account menu at the end of the top bar: the user's avatar opens their places (profile,
 * settings, missions, store…) and Sign out. A menu (arrow keys, typeahead); Esc, a click outside
 * or a choice closes it.
 */
export function ProfileMenu() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [logout, { isLoading: signingOut }] = useLogoutMutation();
  const { i18n, t } = useLingui();

  async function signOut() {
    await logout();
    toast({ title: t`Signed out`, description: t`See you soon.` });
    navigate('/dashboard', { replace: true });
  }

  if (!user) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={t`Your account`}
        className={`inline-flex size-11 items-center justify-center rounded-full hover:bg-surface-hover ${focusRing}`}
      >
        <span aria-hidden="true" className="contents">
          <Avatar name={user.username} src={user.avatar || null} size={32} />
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent label={t`Your account`}>
        <DropdownMenuLabel>
          <Trans>
            Signed in as <span className="font-semibold text-fg">{user.username}</span>
          </Trans>
        </DropdownMenuLabel>
        {LINKS.map((l) => (
          <DropdownMenuItem key={l.to} asChild>
            <Link to={l.to} aria-current={pathname === l.to ? 'page' : undefined}>
              {i18n._(l.label)}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={signingOut} onSelect={() => void signOut()}>
          {signingOut ? <Trans>Signing out…</Trans> : <Trans>Sign out</Trans>}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
