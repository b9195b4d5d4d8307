import { useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Button } from '@mui/material';
import { Edit, SimpleForm, useEditContext, useNotify, useTranslate, type EditProps, type HttpError } from 'react-admin';

/**
 * An edit page whose save is refused with 412 when someone changed the record meanwhile (the data
 * provider sends If-Match). The page then offers to reload the record: the form keeps what the
 * user typed (keepDirtyValues) and takes the stored values elsewhere, with the new ETag. `below`
 * goes after the form, outside it (the record's images, which are saved one by one).
 */
export const ConflictAwareEdit = ({ children, below, ...props }: Omit<EditProps, 'children'> & { children: ReactNode; below?: ReactNode }) => {
  const [conflict, setConflict] = useState(false);
  const notify = useNotify();
  function onError(error: unknown) {
    const { status, body, message } = error as HttpError;
    if (status === 412) return setConflict(true);
    // Field errors are shown on their fields by the form.
    if ((body as { errors?: unknown } | undefined)?.errors) return;
    notify(message || 'ra.notification.http_error', { type: 'error' });
  }
  return (
    <Edit mutationMode="pessimistic" redirect="show" mutationOptions={{ onError }} {...props}>
      {conflict && <EditConflictAlert onReloaded={() => setConflict(false)} />}
      <SimpleForm resetOptions={{ keepDirtyValues: true }}>{children}</SimpleForm>
      {below}
    </Edit>
  );
};

const EditConflictAlert = ({ onReloaded }: { onReloaded: () => void }) => {
  const { refetch } = useEditContext();
  return <ConflictAlert message="cartelera.conflict.message" onReload={() => refetch().then(onReloaded)} />;
};

/**
 * What the admin shows when a save of a record was refused because someone changed it meanwhile
 * (412): the same for an edit and for a version restored from the Historial. `message` says what
 * reloading does there.
 */
export const ConflictAlert = ({ message, onReload }: { message: string; onReload: () => unknown }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onReload}>
          {translate('cartelera.conflict.reload')}
        </Button>
      }
    >
      <AlertTitle>{translate('cartelera.conflict.title')}</AlertTitle>
      {translate(message)}
    </Alert>
  );
};
