import type { ReactNode } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';
import { LinkButton } from './ui/LinkButton';
import { useT } from '../lib/intl';
import { PageTitle } from './ui/PageTitle';

type TextPageProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Pages the spec gives a back button to base. */
  backToHome?: boolean;
};

/** A readable column of text on a solid card, for the public information pages. */
export function TextPage({ title, subtitle, children, backToHome = false }: TextPageProps) {
  const t = useT();
  useDocumentTitle(title);
  return (
    <article className="card text-page">
      <header className="text-page__header">
        <PageTitle>{title}</PageTitle>
        {subtitle && <p className="text-page__subtitle">{subtitle}</p>}
      </header>
      {children}
      {backToHome && (
        <p className="text-page__back">
          <LinkButton href="/" variant="secondary">
            {t('nav.backToHome')}
          </LinkButton>
        </p>
      )}
    </article>
  );
}
