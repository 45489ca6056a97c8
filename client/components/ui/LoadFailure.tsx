import { useT } from '../../lib/intl';
import { Button } from './Button';

/** What a page says where its data could not be loaded: the message, announced, and a retry. */
export function LoadFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="load-failure">
      <p role="alert">{message}</p>
      <Button variant="secondary" onPress={onRetry}>
        {t('app.retry')}
      </Button>
    </div>
  );
}
