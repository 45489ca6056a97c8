import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Card } from '../../components/ui/Card';
import { api } from '../../lib/api';
import type { OwnerKey } from '../../lib/device-db';
import { useT } from '../../lib/intl';
import { prefs } from '../../stores/prefs-store';
import { facilitiesListDocument } from '../../documents/kept-documents';
import { downloadName } from '../../documents/download-names';
import { PdfError, PdfViewer } from '../../documents/PdfViewer';
import type { ScreeningResult } from '@common/types/result';
import { DOCUMENT_LANGUAGE_LABELS, documentLanguage } from '../../lib/screening-result';

type ReferralCheck = 'unknown' | 'exists' | 'none' | 'failed';

function useReferralCheck(screeningId: number, offline: boolean): ReferralCheck {
  const [check, setCheck] = useState<ReferralCheck>('unknown');
  useEffect(() => {
    // Offline the kept result tells whether there is a referral; the server cannot be asked.
    if (offline) return;
    let current = true;
    api
      .get<{ exists: boolean }>(`/screening/${screeningId}/referral/exists`)
      .then((answer) => current && setCheck(answer.exists ? 'exists' : 'none'))
      .catch(() => current && setCheck('failed'));
    return () => {
      current = false;
    };
  }, [screeningId, offline]);
  return check;
}

export type ResultDocumentsProps = {
  result: ScreeningResult;
  /** Whose device copies these documents are kept as; null keeps none. */
  ownerKey: OwnerKey | null;
  /** Shown from the offline copy: the viewers read the documents kept on the device. */
  offline: boolean;
};

/** Descriptions, the referral and the facilities list, each in its own viewer. */
export function ResultDocuments({ result, ownerKey, offline }: ResultDocumentsProps) {
  const t = useT();
  const { lang } = useSnapshot(prefs);
  const { screening } = result;
  const checkedReferral = useReferralCheck(screening.id, offline);
  const descriptions = result.documents.filter((document) => document.type === 'description');
  const referralDocument = result.documents.find((document) => document.type === 'referral');
  const referral: ReferralCheck = offline ? (referralDocument ? 'exists' : 'none') : checkedReferral;

  return (
    <Card title={t('result.documents.title')} className="result-card">
      {descriptions.length === 0 && <p>{t('result.documents.noDescriptions')}</p>}
      {descriptions.map((document) => {
        const language = documentLanguage(document.name);
        return (
          <PdfViewer
            key={document.id}
            title={t(DOCUMENT_LANGUAGE_LABELS[language])}
            source={{ path: '/screening/download-result', query: { documentId: document.id, screeningId: screening.id, lang } }}
            // The server's name rule: its recorded language, Polish when it has none.
            fileName={downloadName('description', lang, {
              examinedAt: screening.examinedAt,
              documentLanguage: document.language ?? 'pl',
            })}
            deviceCopy={{ offline, ownerKey, result, document }}
            openWhenKept
          />
        );
      })}
      {referral === 'exists' && (
        <PdfViewer
          title={t('result.documents.referral')}
          source={{ path: '/screening/referral', query: { id: screening.id, lang } }}
          fileName={downloadName('referral', lang, { examinedAt: screening.examinedAt })}
          fetchErrorKey="result.errors.referral"
          deviceCopy={{ offline, ownerKey, result, document: referralDocument }}
        />
      )}
      {referral === 'failed' && <PdfError>{t('result.errors.referralUnknown')}</PdfError>}
      {result.hasFacilitiesList && (
        <PdfViewer
          title={t('result.documents.facilitiesList')}
          source={{ path: '/screening/download-wykaz', query: { screeningId: screening.id, lang } }}
          fileName={downloadName('facilitiesList', lang, { examinedAt: screening.examinedAt })}
          deviceCopy={{ offline, ownerKey, result, document: facilitiesListDocument(screening.id) }}
        />
      )}
    </Card>
  );
}
