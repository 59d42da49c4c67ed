import { useNavigation, type LinkProps } from './navigation';

/** A link to a page of the app, through whichever navigation is in place. */
export function Link(props: LinkProps) {
  const { Link: Impl } = useNavigation();
  return <Impl {...props} />;
}
