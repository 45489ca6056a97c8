import { useParams } from 'wouter';
import type { ImageSet } from '@common/types/images';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { PageTitle } from '../../components/ui/PageTitle';
import { Link } from '../../components/ui/Link';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { useT } from '../../lib/intl';
import { pathFor } from '../../routes/paths';
import { useSession } from '../../stores/session-store';
import { useDeviceOwner } from '../../documents/use-device-owner';
import { useAskPin } from '../../documents/copies-lock';
import { priorScreeningSet, screeningSetOf, uploadSetOf } from '../../lib/image-sets';
import { KeepImagesSection } from './KeepImagesSection';
import { useViewerSets } from './use-viewer-sets';
import { useViewerStylesheet } from './use-viewer-stylesheet';
import { startFirstViewsOf } from './first-views';
// cornerstone3D (4 MB of script) loads beside the list of images, not before the page shows: the
// viewer loads it itself (cornerstone-module.ts) and draws the images' first views meanwhile.
import { ImageSetViewer } from './ImageSetViewer';

// As this page's code arrives, before React shows it: the first images' download (first-views.ts).
startFirstViewsOf(window.location.pathname);

/** The owner of the kept images; a signed-in owner is remembered for opening them offline. */
/**
 * images_of_screening (/screening/:id/images) and uploaded_study (/portal/uploaded-studies/:studyUid):
 * a screening's images or one uploaded study, in the mammography viewer.
 */
export default function ViewerPage() {
  const t = useT();
  const params = useParams<{ id?: string; studyUid?: string }>();
  const ofUpload = params.studyUid !== undefined;
  const title = t(ofUpload ? 'images.titleUpload' : 'images.title');
  useDocumentTitle(title);
  const ownerKey = useDeviceOwner();
  const load = useViewerSets(ownerKey);
  useAskPin(load.kind === 'locked' ? load.ownerKey : null);
  const styled = useViewerStylesheet();

  let set: ImageSet | undefined;
  let prior: ImageSet | undefined;
  if (load.kind === 'loaded') {
    if (params.studyUid !== undefined) set = uploadSetOf(load.sets, params.studyUid);
    else if (params.id !== undefined && /^\d+$/.test(params.id)) {
      const screening = screeningSetOf(load.sets, Number(params.id));
      set = screening;
      prior = screening && priorScreeningSet(load.sets, screening);
    }
  }
  const offline = load.kind === 'loaded' && load.offline;
  const backPath = ofUpload ? pathFor('upload') : params.id ? pathFor('screening_of_patient', { id: params.id }) : null;
  const { user } = useSession();
  // The guest's result page has no id in its path.
  const resultPath = user?.guest ? pathFor('screening') : backPath;

  return (
    <article className="card images-page">
      <header className="images-page__header">
        <PageTitle>{title}</PageTitle>
        <p>{t('images.notDiagnostic')}</p>
        {resultPath && <Link href={resultPath}>{t(ofUpload ? 'images.backToUpload' : 'images.backToResult')}</Link>}
      </header>
      {(load.kind === 'loading' || load.kind === 'locked') && <p role="status">{t('app.loading')}</p>}
      {load.kind === 'failed' &&
        (load.offline ? (
          <p role="alert">{t('images.offlineNotKept')}</p>
        ) : (
          <LoadFailure message={t('images.loadFailed')} onRetry={load.reload} />
        ))}
      {load.kind === 'loaded' && !set && <p role="alert">{offline ? t('images.offlineNotKept') : t('images.notFound')}</p>}
      {offline && set && <p className="images-page__offline">{t('images.offlineViewing')}</p>}
      {set && styled && (
        <ImageSetViewer
          key={set.kind === 'screening' ? set.screeningId : set.studyInstanceUid}
          set={set}
          prior={prior ?? null}
          offline={offline}
          ownerKey={ownerKey}
        />
      )}
      {set?.kind === 'screening' && ownerKey && <KeepImagesSection set={set} ownerKey={ownerKey} offline={offline} />}
    </article>
  );
}
