import { useId, type ReactNode } from 'react';
import { PageTitle } from './PageTitle';
import { cx } from './classes';

export type CardProps = {
  title?: ReactNode;
  /** Heading level of the title, so cards fit the page outline. */
  headingLevel?: 1 | 2 | 3;
  children: ReactNode;
  className?: string;
};

/** A solid surface: text on the background image always sits on a card, so contrast holds. */
export function Card({ title, headingLevel = 2, children, className }: CardProps) {
  const titleId = useId();
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1] ?? 'h2';
  return (
    <section className={cx('card', className)} aria-labelledby={title ? titleId : undefined}>
      {title &&
        // A card that holds the whole page (a login, a form) carries the page's title.
        (headingLevel === 1 ? (
          <PageTitle id={titleId} className="card__title">
            {title}
          </PageTitle>
        ) : (
          <Heading id={titleId} className="card__title">
            {title}
          </Heading>
        ))}
      {children}
    </section>
  );
}
