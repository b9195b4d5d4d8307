import FestivalIcon from '@mui/icons-material/Festival';
import { EventoCreate } from './EventoCreate';
import { EventoEdit } from './EventoEdit';
import { EventoList } from './EventoList';
import { EventoShow } from './EventoShow';

export default {
  list: EventoList,
  show: EventoShow,
  create: EventoCreate,
  edit: EventoEdit,
  icon: FestivalIcon,
  recordRepresentation: 'titulo',
};
