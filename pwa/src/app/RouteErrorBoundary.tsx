import { Component, type ErrorInfo, type ReactNode } from 'react';
import RouteErrorPage from './pages/RouteErrorPage';

type Props = { children: ReactNode; /** The current location: moving elsewhere tries again. */ resetKey: string };
type State = { failed: boolean; resetKey: string };

/**
 * Catches a page that failed to render or whose chunk could not load (offline, a deploy removed
 * it) and shows the error page instead of a blank screen. Going to another page clears it.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}
