import type { ReactNode } from 'react';
import { Shell } from './Shell';

/** Auth-free pages: content cards over the background image (see styles/layout.css). */
export function PublicLayout({ children }: { children: ReactNode }) {
  return <Shell variant="public">{children}</Shell>;
}
