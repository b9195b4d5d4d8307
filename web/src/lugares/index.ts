import PlaceIcon from '@mui/icons-material/Place';
import { LugarCreate } from './LugarCreate';
import { LugarEdit } from './LugarEdit';
import { LugarList } from './LugarList';
import { LugarShow } from './LugarShow';

export default {
  list: LugarList,
  show: LugarShow,
  create: LugarCreate,
  edit: LugarEdit,
  icon: PlaceIcon,
  recordRepresentation: 'nombre',
};
