import { useEffect, useRef, type ReactNode } from 'react';
import { cx } from './classes';
import { claimFocusForHeading } from '../../lib/page-focus';

type PageTitleProps = { children: ReactNode; id?: string; className?: string };

/**
 * The page's one <h1>, in the spec's "h0" size so it stands out from card titles. It can take
 * focus (tabIndex -1, not in the Tab order): after a navigation focus lands here (page-focus.ts).
 */
export function PageTitle({ children, id, className }: PageTitleProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (ref.current) claimFocusForHeading(ref.current);
  }, []);
  return (
    <h1 ref={ref} id={id} tabIndex={-1} className={cx('h0 page-title', className)}>
      {children}
    </h1>
  );
}
