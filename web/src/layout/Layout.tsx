import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { Menu } from './Menu';
import { WriteKeyDialog } from './WriteKeyDialog';

/** react-admin's shell (app bar, menu of resources and the import page, notifications), plus the write-key prompt. */
export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout menu={Menu}>
    {children}
    <WriteKeyDialog />
  </RaLayout>
);
