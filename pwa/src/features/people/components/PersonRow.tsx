import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../../components/Avatar';
import type { NameStyle } from '@parley/contract/billing';
import { focusRing } from '../../../components/ui/buttonStyles';
import { DisplayName } from '../../../components/people/DisplayName';
import { Trans } from '@lingui/react/macro';

/** One person in a list: avatar, name (to their profile), a status line, and actions. */
export function PersonRow({
  username,
  avatar,
  status,
  online,
  children,
  nameStyle,
}: {
  username: string;
  nameStyle?: NameStyle | undefined;
  avatar: string;
  status?: ReactNode;
  online?: boolean;
  children?: ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center gap-3 py-2">
      <span className="relative">
        <Avatar name={username} src={avatar} size={44} />
        {online !== undefined && (
          <span
            aria-hidden="true"
            className={`absolute end-0 bottom-0 size-3 rounded-full ring-2 ring-white ${online ? 'bg-green-600' : 'bg-slate-400'}`}
          />
        )}
      </span>
      <div className="min-w-0 flex-1">
        <Link
          to={`/users/${username}`}
          className={`block truncate rounded font-semibold text-slate-900 underline-offset-2 hover:underline ${focusRing}`}
        >
          <DisplayName name={username} style={nameStyle} />
        </Link>
        {(status || online !== undefined) && (
          <p className="text-sm text-slate-700">
            {online !== undefined && <span>{online ? <Trans>Online</Trans> : <Trans>Offline</Trans>}</span>}
            {online !== undefined && status && ' · '}
            {status}
          </p>
        )}
      </div>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </li>
  );
}
