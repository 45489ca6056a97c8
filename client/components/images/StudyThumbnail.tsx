import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/intl';
import { fetchImageSets, uploadSetOf } from '../../lib/image-sets';

type ThumbnailState = 'waiting' | 'drawn' | 'failed';
const SIZE = 96;

/**
 * A small picture of an uploaded study's first image, drawn only once the row scrolls into view
 * (a long list must not download and decode every study up front). Its code (cornerstone) loads
 * on the first thumbnail that shows.
 */
export function StudyThumbnail({ studyInstanceUid, label }: { studyInstanceUid: string; label: string }) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<ThumbnailState>('waiting');

  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    let current = true;
    const draw = async () => {
      const set = uploadSetOf(await fetchImageSets(), studyInstanceUid);
      const first = set?.images[0];
      if (!first) throw new Error('study without images');
      const { renderThumbnail } = await import('./thumbnail-render');
      await renderThumbnail(target, first.id, first.sizeBytes);
    };
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      draw().then(
        () => current && setState('drawn'),
        () => current && setState('failed'),
      );
    });
    observer.observe(target);
    return () => {
      current = false;
      observer.disconnect();
    };
  }, [studyInstanceUid]);

  return (
    <span className="study-thumbnail" data-state={state}>
      <canvas ref={canvas} width={SIZE} height={SIZE} role="img" aria-label={label} hidden={state === 'failed'} />
      {state === 'failed' && <span>{t('images.thumbnail.failed')}</span>}
    </span>
  );
}
