import { useMemo, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { NavigationProvider, type Navigation } from '../components/layout/navigation';

/** The landing page's and top bar's navigation inside the app: react-router's. */
export function RouterNavigation({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const value = useMemo<Navigation>(
    () => ({ location, navigate: (to, options) => void navigate(to, options), Link }),
    [location, navigate],
  );
  return <NavigationProvider value={value}>{children}</NavigationProvider>;
}
