import { useEffect, useState } from 'react';
import { CONTENT_MAX_LENGTH, characterCount } from '@common/validation/contact';
import { TextArea } from '../../components/ui/TextArea';
import { useT, type MessageKey } from '../../lib/intl';

/** Announce the count once typing pauses, not after every key. */
const ANNOUNCE_AFTER_MS = 1_000;

type ContentFieldProps = {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: MessageKey | undefined;
};

/** Cuts at the limit in characters (an emoji is one), as the shared rule counts them. */
function withinLimit(text: string): string {
  return characterCount(text) <= CONTENT_MAX_LENGTH ? text : [...text].slice(0, CONTENT_MAX_LENGTH).join('');
}

/**
 * The message text with its "n / 300" counter. The counter is the field's description (read
 * with the field); a separate polite region tells screen-reader users the count after a pause.
 */
export function ContentField({ value, onChange, onBlur, error }: ContentFieldProps) {
  const t = useT();
  const count = characterCount(value);
  const [announced, setAnnounced] = useState('');

  useEffect(() => {
    if (count === 0) return;
    const timer = setTimeout(
      () => setAnnounced(t('contact.content.counterAnnouncement', { count, max: CONTENT_MAX_LENGTH })),
      ANNOUNCE_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [count, t]);

  return (
    <div className="contact-content">
      <TextArea
        name="content"
        label={t('contact.content.label')}
        value={value}
        onChange={(text) => onChange(withinLimit(text))}
        onBlur={onBlur}
        isRequired
        rows={6}
        description={
          <span
            className={count >= CONTENT_MAX_LENGTH ? 'contact-content__counter contact-content__counter--full' : 'contact-content__counter'}
          >
            {t('contact.content.counter', { count, max: CONTENT_MAX_LENGTH })}
          </span>
        }
        errorMessage={error && t(error)}
      />
      <p className="visually-hidden" aria-live="polite">
        {announced}
      </p>
    </div>
  );
}
