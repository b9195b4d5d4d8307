import HistoryIcon from '@mui/icons-material/History';
import { CambiosRecientes } from './CambiosRecientes';

/** The change log as a resource: its list is Cambios recientes; the Papelera and each record's Historial read it too. */
export default {
  list: CambiosRecientes,
  icon: HistoryIcon,
  options: { label: 'cartelera.changes.recent' },
};
