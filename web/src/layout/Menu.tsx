import ImportExportIcon from '@mui/icons-material/ImportExport';
import { Menu as RaMenu, useTranslate } from 'react-admin';

/** react-admin's menu of resources, then the import and export page. */
export const Menu = () => {
  const translate = useTranslate();
  return (
    <RaMenu>
      <RaMenu.ResourceItems />
      <RaMenu.Item to="/importar" primaryText={translate('cartelera.transfer.menu')} leftIcon={<ImportExportIcon />} />
    </RaMenu>
  );
};
