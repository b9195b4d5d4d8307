import type { MouseEvent, ReactNode } from 'react';
import { Link, useCreatePath, useRecordContext, useResourceContext, type Identifier } from 'react-admin';

interface Props {
  children: ReactNode;
  /** Another record than the row's own: a participation's artist, movie, work or event. */
  resource?: string;
  id?: Identifier;
}

/**
 * A link to a record's page. Rows open on a click, but a table row cannot take the keyboard's
 * focus: this link, in the column that names the record, is how the keyboard opens it.
 */
export const ShowLink = ({ children, resource, id }: Props) => {
  const record = useRecordContext();
  const rowResource = useResourceContext();
  const createPath = useCreatePath();
  const target = resource ?? rowResource;
  const key = id ?? record?.id;
  if (target === undefined || key === undefined) return <>{children}</>;
  return (
    // The row's own click would navigate a second time, leaving a duplicate entry in the history.
    <Link to={createPath({ resource: target, id: key, type: 'show' })} onClick={(event: MouseEvent) => event.stopPropagation()}>
      {children}
    </Link>
  );
};
