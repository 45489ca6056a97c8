import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useParams } from 'wouter';
import { goBack } from '../../routes/go-back';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useOnDevice } from '../../hooks/use-on-device';
import { pathFor } from '../../routes/paths';
import { useT } from '../../lib/intl';
import { useSession } from '../../stores/session-store';
import { useDeviceOwner } from '../../documents/use-device-owner';
import { OfflineCopyMark } from '../../documents/OfflineCopyMark';
import { useAskPin } from '../../documents/copies-lock';
import { IsoSection } from './IsoSection';
import { OrderButtons } from './OrderButtons';
import { ResultDocuments } from './ResultDocuments';
import { ResultSummary } from './ResultSummary';
import { SponsorBanners } from './SponsorBanners';
import { SupportMaterials } from './SupportMaterials';
import { SurveySection } from './SurveySection';
import { useScreeningResult } from './use-screening-result';
import { ScreeningImagesLink } from '../../components/images/ScreeningImagesLink';
import '../../documents/documents.css';
import './result.css';
import { PageTitle } from '../../components/ui/PageTitle';

// With the device database's code, loaded once the result shows: it never holds up the first render.
const SavedCopies = lazy(() => import('../../documents/SavedCopies').then((module) => ({ default: module.SavedCopies })));

function routeScreeningId(param: string | undefined): number | undefined {
  return param !== undefined && /^\d+$/.test(param) ? Number(param) : undefined;
}

/**
 * screening (the guest's one screening, /screening) and screening_of_patient (/screening/:id):
 * the result page of spec section 2.
 */
export default function ResultPage() {
  const t = useT();
  useDocumentTitle(t('result.title'));
  const params = useParams<{ id?: string }>();
  const routeId = routeScreeningId(params.id);
  const ownerKey = useDeviceOwner();
  const onDevice = useOnDevice();
  const load = useScreeningResult(routeId, ownerKey);
  useAskPin(load.kind === 'locked' ? load.ownerKey : null);
  const [, navigate] = useLocation();
  const { user } = useSession();
  // Ordering belongs to the patient portal: a result-portal guest has no account to order with.
  const canOrder = user !== null && !user.guest && routeId !== undefined;

  // Spec section 2: a screening other than the one the path names means the user goes back. The
  // route guard checks this on result-portal pages; a patient's /screening/:id is checked here,
  // on the answer the page loads anyway.
  const mismatch = load.kind === 'loaded' && routeId !== undefined && load.result.screening.id !== routeId;
  useEffect(() => {
    if (mismatch) goBack(navigate, pathFor('mammography_screenings'));
  }, [mismatch, navigate]);
  const offlineSavedAt = load.kind === 'loaded' ? load.offlineSavedAt : undefined;

  return (
    <div className="result-page">
      {!offlineSavedAt && <SponsorBanners placement="top-placement" />}
      <PageTitle className="result-page__title">{t('result.title')}</PageTitle>
      {(load.kind === 'loading' || load.kind === 'locked') && (
        <p role="status" className="result-page__loading">
          {t('result.loading')}
        </p>
      )}
      {load.kind === 'failed' && (
        <p role="alert" className="result-page__error">
          {t(load.offline ? 'errors.offline' : 'result.errors.fetch')}
        </p>
      )}
      {offlineSavedAt && <OfflineCopyMark savedAt={offlineSavedAt} />}
      {load.kind === 'loaded' && !mismatch && (
        <>
          <ResultSummary screening={load.result.screening} />
          {/* Offline the viewer opens only kept images; it says so itself, so the link stays. */}
          <ScreeningImagesLink screeningId={load.result.screening.id} variant="button" />
          <ResultDocuments result={load.result} ownerKey={ownerKey} offline={offlineSavedAt !== undefined} />
          {/* The ISO image and the survey need the server; offline they would only fail. */}
          {!offlineSavedAt && (
            <>
              <IsoSection screeningId={load.result.screening.id} initialStatus={load.result.iso.status} />
              {canOrder && <OrderButtons screeningId={load.result.screening.id} />}
              <SupportMaterials />
              <SurveySection
                submitted={load.result.survey.submitted}
                surveyPath={routeId === undefined ? pathFor('survey') : pathFor('survey_of_screening', { id: routeId })}
              />
            </>
          )}
        </>
      )}
      {onDevice && ownerKey && load.kind !== 'loading' && load.kind !== 'locked' && (
        <Suspense fallback={null}>
          <SavedCopies ownerKey={ownerKey} />
        </Suspense>
      )}
      {!offlineSavedAt && <SponsorBanners placement="bottom-placement" />}
    </div>
  );
}
