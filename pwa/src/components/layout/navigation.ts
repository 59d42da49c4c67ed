import { createContext, useContext, type AnchorHTMLAttributes, type ComponentType } from 'react';

/**
 * What the landing page and the public top bar need from a router, without a router: the landing
 * page runs as a small island before the app (and its router) has loaded (features/landing/island),
 * and inside the app once it has (app/RouterNavigation). Other screens use react-router directly.
 */
export type NavigationLocation = { pathname: string; state: unknown; key: string };
export type NavigateOptions = { state?: unknown };
export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; state?: unknown };

export type Navigation = {
  location: NavigationLocation;
  navigate: (to: string, options?: NavigateOptions) => void;
  Link: ComponentType<LinkProps>;
};

const NavigationContext = createContext<Navigation | null>(null);

export const NavigationProvider = NavigationContext.Provider;

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation needs a NavigationProvider (the landing island or the app router)');
  return navigation;
}
