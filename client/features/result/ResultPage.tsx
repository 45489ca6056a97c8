import { useEffect } from 'react';
import { useParams } from 'wouter';
import { useDocumentTitle } from '../../app/layouts/useDocumentTitle';
import { pathFor } from '../../app/routes';
import { useT } from '../../lib/intl';
import { IsoSection } from './IsoSection';
import { ResultDocuments } from './ResultDocuments';
import { ResultSummary } from './ResultSummary';
import { SponsorBanners } from './SponsorBanners';
import { SupportMaterials } from './SupportMaterials';
import { SurveySection } from './SurveySection';
import { useScreeningResult } from './use-screening-result';
import './result.css';

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
  const load = useScreeningResult(routeId);

  // Spec section 2: a screening other than the one the path names means the user goes back.
  const mismatch = load.kind === 'loaded' && routeId !== undefined && load.result.screening.id !== routeId;
  useEffect(() => {
    if (mismatch) history.back();
  }, [mismatch]);

  return (
    <div className="result-page">
      <SponsorBanners placement="top-placement" />
      <h1 className="result-page__title">{t('result.title')}</h1>
      {load.kind === 'loading' && (
        <p role="status" className="result-page__loading">
          {t('result.loading')}
        </p>
      )}
      {load.kind === 'failed' && (
        <p role="alert" className="result-page__error">
          {t(load.offline ? 'errors.offline' : 'result.errors.fetch')}
        </p>
      )}
      {load.kind === 'loaded' && !mismatch && (
        <>
          <ResultSummary screening={load.result.screening} />
          <ResultDocuments result={load.result} />
          <IsoSection screeningId={load.result.screening.id} initialStatus={load.result.iso.status} />
          <SupportMaterials />
          <SurveySection
            submitted={load.result.survey.submitted}
            surveyPath={routeId === undefined ? pathFor('survey') : pathFor('survey_of_screening', { id: routeId })}
          />
        </>
      )}
      <SponsorBanners placement="bottom-placement" />
    </div>
  );
}
