import { useIntl, useT } from '../../lib/intl';
import { formatSize } from './format-size';
import type { SkippedCounts } from './selection';

/** Why picked files are missing from the list, one line per reason (a polite live region). */
export function SkippedNotice({ skipped, maxFileBytes }: { skipped: SkippedCounts; maxFileBytes: number }) {
  const t = useT();
  const intl = useIntl();
  const lines = [
    skipped.notDicom > 0 && t('upload.skipped.notDicom', { count: skipped.notDicom }),
    skipped.unreadable > 0 && t('upload.skipped.unreadable', { count: skipped.unreadable }),
    skipped.tooLarge > 0 && t('upload.skipped.tooLarge', { count: skipped.tooLarge, max: formatSize(intl, maxFileBytes) }),
  ].filter((line): line is string => Boolean(line));
  return (
    <div className="upload-skipped" role="status">
      {lines.length > 0 && (
        <ul className="upload-skipped__list">
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
