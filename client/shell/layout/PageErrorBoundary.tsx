import { Component, type ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { useT } from '../../lib/intl';

function PageLoadFailed() {
  const t = useT();
  return (
    <div className="card page-error" role="alert">
      <p>{t('errors.resourceUnavailable')}</p>
      <Button onPress={() => window.location.reload()}>{t('app.retry')}</Button>
    </div>
  );
}

type Props = { children: ReactNode; /** a new value (the path) clears the error */ resetKey: string };

/**
 * A page chunk that fails to load (offline before it was cached, or a deployment replaced it) or
 * a page that throws while rendering shows a retry instead of a blank screen.
 */
export class PageErrorBoundary extends Component<Props, { hasError: boolean; resetKey: string }> {
  state = { hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: { hasError: boolean; resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { hasError: false, resetKey: props.resetKey };
  }

  render() {
    return this.state.hasError ? <PageLoadFailed /> : this.props.children;
  }
}
