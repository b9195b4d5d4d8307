import EventIcon from '@mui/icons-material/Event';
import { FuncionCreate } from './FuncionCreate';
import { FuncionEdit } from './FuncionEdit';

// No list of its own: showtimes are listed on the pages of their item and of their venue, and in the Cartelera.
export default {
  create: FuncionCreate,
  edit: FuncionEdit,
  icon: EventIcon,
};
