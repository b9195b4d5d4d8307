import LabelIcon from '@mui/icons-material/Label';
import { CategoriaCreate } from './CategoriaCreate';
import { CategoriaEdit } from './CategoriaEdit';
import { CategoriaList } from './CategoriaList';
import { CategoriaShow } from './CategoriaShow';

export default {
  list: CategoriaList,
  show: CategoriaShow,
  create: CategoriaCreate,
  edit: CategoriaEdit,
  icon: LabelIcon,
  recordRepresentation: 'nombre',
};
