import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { cx } from '../../components/ui/classes';
import { Footer } from './Footer';
import { Header } from './Header';
import { focusAfterNavigation } from '../../lib/page-focus';
import { useT } from '../../lib/intl';

/**
 * The frame of every page: skip link, header with the accessibility tools, main, footer.
 * After a client-side navigation focus moves to the new page's heading (page-focus.ts).
 */
export function Shell({ variant, children }: { variant: 'public' | 'signed-in'; children: ReactNode }) {
  const t = useT();
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    focusAfterNavigation(location, mainRef.current);
  }, [location]);

  return (
    <div className={cx('shell', `shell--${variant}`)}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Header />
      <main id="main" ref={mainRef} tabIndex={-1} className="shell__main">
        {children}
      </main>
      <Footer />
    </div>
  );
}
