import PersonIcon from '@mui/icons-material/Person';
import { artistaName } from './artistaName';
import { ArtistaCreate } from './ArtistaCreate';
import { ArtistaEdit } from './ArtistaEdit';
import { ArtistaList } from './ArtistaList';
import { ArtistaShow } from './ArtistaShow';

export default {
  list: ArtistaList,
  show: ArtistaShow,
  create: ArtistaCreate,
  edit: ArtistaEdit,
  icon: PersonIcon,
  recordRepresentation: artistaName,
};
