import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { useT } from '../../lib/intl';
import './accessibility.css';

// The panel's controls (popover, radio groups) load on the first press: they are not needed to
// paint the home page.
const AccessibilityPanel = lazy(() => import('./AccessibilityPanel'));

function AccessibilityIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M12 2a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm9 7h-6v13h-2v-6h-2v6H9V9H3V7h18v2z" />
    </svg>
  );
}

/** The header button that opens the accessibility panel (language, text size, contrast, reset). */
export function AccessibilityButton() {
  const t = useT();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [isOpen, setOpen] = useState(false);

  return (
    <>
      <Button
        ref={triggerRef}
        variant="quiet"
        className="a11y-trigger"
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        onPress={() => setOpen(!isOpen)}
      >
        <AccessibilityIcon />
        <span className="a11y-trigger__label">{t('a11y.panel.open')}</span>
      </Button>
      {isOpen && (
        <Suspense fallback={null}>
          <AccessibilityPanel triggerRef={triggerRef} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
