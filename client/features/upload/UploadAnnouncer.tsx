import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/intl';
import { nextAnnouncement, SILENT, type Announcement } from './upload-announcer';
import type { RunSnapshot } from './run-types';

/** A polite live region that speaks at a calm rate (upload-announcer.ts), never on every tick. */
export function UploadAnnouncer({ snapshot }: { snapshot: RunSnapshot | null }) {
  const t = useT();
  const state = useRef(SILENT);
  const [said, setSaid] = useState<Announcement | null>(null);

  useEffect(() => {
    if (!snapshot) return;
    const next = nextAnnouncement(state.current, snapshot, performance.now());
    state.current = next.state;
    if (next.announcement) setSaid(next.announcement);
  }, [snapshot]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite">
      {said ? t(said.key, said.values) : null}
    </div>
  );
}
