import type { ReactNode } from 'react';
import { BrowserDetailsReporter } from '../../features/audit/BrowserDetailsReporter';
import { Shell } from './Shell';

/** Pages of signed-in users: a plain surface, with the user menu in the header. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  return (
    <Shell variant="signed-in">
      <BrowserDetailsReporter />
      {children}
    </Shell>
  );
}
