import DeleteIcon from '@mui/icons-material/Delete';
import ImportExportIcon from '@mui/icons-material/ImportExport';
import { Menu as RaMenu, useTranslate } from 'react-admin';

/** react-admin's menu of resources (the last, the change log: Cambios recientes), then the trash, and the import and export page. */
export const Menu = () => {
  const translate = useTranslate();
  return (
    <RaMenu>
      <RaMenu.ResourceItems />
      <RaMenu.Item to="/papelera" primaryText={translate('cartelera.changes.trash')} leftIcon={<DeleteIcon />} />
      <RaMenu.Item to="/importar" primaryText={translate('cartelera.transfer.menu')} leftIcon={<ImportExportIcon />} />
    </RaMenu>
  );
};
