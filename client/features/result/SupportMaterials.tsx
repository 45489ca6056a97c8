import { useSnapshot } from 'valtio';
import { Card } from '../../components/ui/Card';
import { useT } from '../../lib/intl';
import { prefs } from '../../stores/prefs-store';
import { downloadName } from '../../documents/download-names';
import { PdfViewer } from '../../documents/PdfViewer';

/** The ISO image instruction and the referral information, in the user's language. */
export function SupportMaterials() {
  const t = useT();
  const { lang } = useSnapshot(prefs);
  return (
    <Card title={t('result.support.title')} className="result-card">
      <PdfViewer
        title={t('result.support.isoInstruction')}
        source={{ path: '/instructions', query: { type: 'iso', lang } }}
        fileName={downloadName('isoInstruction', lang)}
        fetchErrorKey="errors.resourceUnavailable"
      />
      <PdfViewer
        title={t('result.support.referralInformation')}
        source={{ path: '/instructions', query: { type: 'referral-information', lang } }}
        fileName={downloadName('referralInformation', lang)}
        fetchErrorKey="errors.resourceUnavailable"
      />
    </Card>
  );
}
