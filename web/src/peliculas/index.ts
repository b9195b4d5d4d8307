import MovieIcon from '@mui/icons-material/Movie';
import { ItemList } from '../common/ItemList';
import { PeliculaCreate } from './PeliculaCreate';
import { PeliculaEdit } from './PeliculaEdit';
import { PeliculaShow } from './PeliculaShow';

export default {
  list: ItemList,
  show: PeliculaShow,
  create: PeliculaCreate,
  edit: PeliculaEdit,
  icon: MovieIcon,
  recordRepresentation: 'titulo',
};
