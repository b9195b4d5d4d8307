import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DownloadIcon from '@mui/icons-material/Download';
import { Button, ButtonGroup, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useListContext, useResourceContext, useTranslate } from 'react-admin';
import { EXPORT_FORMATS, exportUrl, type ExportFormat } from '../dataProvider';

interface Props {
  label: string;
  /** The file's address in each format; the first format is the button's own. */
  href: (format: ExportFormat) => string;
  formats?: readonly ExportFormat[];
  variant?: 'text' | 'contained';
}

/** A download as a workbook (.xlsx) by default, with a menu of the other formats. */
export const ExportChoices = ({ label, href, formats = EXPORT_FORMATS, variant = 'text' }: Props) => {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement>();
  const [first] = formats;
  if (first === undefined) return null;
  return (
    <>
      <ButtonGroup variant={variant} size="small">
        <Button href={href(first)} download startIcon={<DownloadIcon />}>
          {translate(label)}
        </Button>
        <Button
          aria-label={translate('cartelera.export.choose')}
          aria-haspopup="menu"
          aria-expanded={anchor !== undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <ArrowDropDownIcon />
        </Button>
      </ButtonGroup>
      <Menu anchorEl={anchor} open={anchor !== undefined} onClose={() => setAnchor(undefined)}>
        {formats.map((format) => (
          <MenuItem key={format} component="a" href={href(format)} download onClick={() => setAnchor(undefined)}>
            {translate(`cartelera.export.formats.${format}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

/** A list's "Exportar": that list as filtered and sorted, every record of it, as staff open it in a spreadsheet. */
export const ExportButton = () => {
  const { filterValues, sort } = useListContext();
  const resource = useResourceContext();
  if (resource === undefined) return null;
  return <ExportChoices label="ra.action.export" href={(format) => exportUrl(format, { resource, filter: filterValues, sort })} />;
};
