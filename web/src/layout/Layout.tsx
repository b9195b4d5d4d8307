import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { WriteKeyDialog } from './WriteKeyDialog';

/** react-admin's shell (app bar, menu of resources, notifications), plus the write-key prompt. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout>
    {children}
    <WriteKeyDialog />
  </RaLayout>
);
