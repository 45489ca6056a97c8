import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { Card } from '../../components/ui/Card';
import './password-reset.css';

/** The one card every forgot-password screen is, headed by the page's title. */
export function ResetCard({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="reset-page">
      <Card title={title} headingLevel={1} className="reset-card">
        {children}
      </Card>
    </div>
  );
}
