import { useT } from '../../lib/intl';

/** Shown while a page chunk loads; announced once, politely. */
export function PageLoading() {
  const t = useT();
  return (
    <div className="page-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{t('app.loading')}</span>
    </div>
  );
}
