import { useSnapshot } from 'valtio';
import type { RefObject } from 'react';
import { Button } from '../../components/ui/Button';
import { PopoverDialog } from '../../components/ui/Popover';
import { Radio, RadioGroup } from '../../components/ui/RadioGroup';
import { useT, type MessageKey } from '../../lib/intl';
import {
  FONT_SCALES,
  LANGUAGES,
  THEMES,
  prefs,
  resetPrefs,
  setFontScale,
  setLanguage,
  setTheme,
  type FontScale,
  type Language,
  type Theme,
} from '../../stores/prefs-store';

const LANGUAGE_LABELS: Record<Language, MessageKey> = { pl: 'a11y.language.pl', en: 'a11y.language.en' };

const FONT_SCALE_LABELS: Record<FontScale, MessageKey> = {
  1: 'a11y.fontScale.normal',
  1.4: 'a11y.fontScale.large',
  1.6: 'a11y.fontScale.largest',
};

const THEME_LABELS: Record<Theme, MessageKey> = {
  default: 'a11y.theme.default',
  'black-white': 'a11y.theme.blackWhite',
  'white-black': 'a11y.theme.whiteBlack',
  'black-pink': 'a11y.theme.blackPink',
  'pink-black': 'a11y.theme.pinkBlack',
};

/**
 * Language, text size and contrast, with a reset. Every choice applies at once and is kept on
 * this device (prefs-store); the inline script of index.html applies it before the next paint.
 */
export default function AccessibilityPanel({
  triggerRef,
  onClose,
}: {
  triggerRef: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
}) {
  const t = useT();
  const current = useSnapshot(prefs);

  return (
    <PopoverDialog
      title={t('a11y.panel.title')}
      className="a11y-panel"
      triggerRef={triggerRef}
      isOpen
      onOpenChange={(isOpen) => {
        if (!isOpen) onClose();
      }}
    >
      <RadioGroup
        label={t('a11y.language.label')}
        appearance="buttons"
        orientation="horizontal"
        value={current.lang}
        onChange={(value) => setLanguage(value as Language)}
      >
        {LANGUAGES.map((lang) => (
          <Radio key={lang} value={lang}>
            <span lang={lang}>{t(LANGUAGE_LABELS[lang])}</span>
          </Radio>
        ))}
      </RadioGroup>
      <RadioGroup
        label={t('a11y.fontScale.label')}
        value={String(current.fontScale)}
        onChange={(value) => setFontScale(Number(value) as FontScale)}
      >
        {FONT_SCALES.map((scale) => (
          <Radio key={scale} value={String(scale)}>
            {t(FONT_SCALE_LABELS[scale])}
          </Radio>
        ))}
      </RadioGroup>
      <RadioGroup label={t('a11y.theme.label')} value={current.theme} onChange={(value) => setTheme(value as Theme)}>
        {THEMES.map((theme) => (
          <Radio key={theme} value={theme}>
            <span className="theme-swatch" data-swatch={theme} aria-hidden="true">
              A
            </span>
            {t(THEME_LABELS[theme])}
          </Radio>
        ))}
      </RadioGroup>
      <Button variant="secondary" onPress={resetPrefs} className="a11y-panel__reset">
        {t('a11y.reset')}
      </Button>
    </PopoverDialog>
  );
}
