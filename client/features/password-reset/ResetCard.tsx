import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { Card } from '../../components/ui/Card';
import './password-reset.css';

/**
 * The one card every forgot-password screen is, headed by the page's title. `documentTitle` is
 * for a heading the spec shares with another page: each tab title must be the page's own.
 */
export function ResetCard({ title, documentTitle = title, children }: { title: string; documentTitle?: string; children: ReactNode }) {
  useDocumentTitle(documentTitle);
  return (
    <div className="reset-page">
      <Card title={title} headingLevel={1} className="reset-card">
        {children}
      </Card>
    </div>
  );
}
