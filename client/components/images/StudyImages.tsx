import type { UploadedStudy } from '@common/types/upload';
import { Link } from '../ui/Link';
import { useIntl, useT } from '../../lib/intl';
import { pathFor } from '../../routes/paths';
import { StudyThumbnail } from './StudyThumbnail';

/** An uploaded study's thumbnail and the link to it in the viewer (the upload page's list). */
export function StudyImages({ study }: { study: Pick<UploadedStudy, 'studyInstanceUid' | 'studyDate'> }) {
  const t = useT();
  const intl = useIntl();
  // A calendar day from the image header: no time zone may shift it.
  const date = study.studyDate && intl.formatDate(`${study.studyDate}T00:00:00Z`, { dateStyle: 'long', timeZone: 'UTC' });
  return (
    <span className="study-images">
      <StudyThumbnail
        studyInstanceUid={study.studyInstanceUid}
        label={date ? t('images.thumbnail.alt', { date }) : t('images.thumbnail.altUndated')}
      />
      <Link href={pathFor('uploaded_study', { studyUid: study.studyInstanceUid })}>
        {date ? t('images.studyLink', { date }) : t('images.studyLinkUndated')}
      </Link>
    </span>
  );
}
