import TheaterComedyIcon from '@mui/icons-material/TheaterComedy';
import { ItemList } from '../common/ItemList';
import { ObraCreate } from './ObraCreate';
import { ObraEdit } from './ObraEdit';
import { ObraShow } from './ObraShow';

export default {
  list: ItemList,
  show: ObraShow,
  create: ObraCreate,
  edit: ObraEdit,
  icon: TheaterComedyIcon,
  recordRepresentation: 'titulo',
};
