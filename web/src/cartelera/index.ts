import TheatersIcon from '@mui/icons-material/Theaters';
import { CarteleraList } from './CarteleraList';

export default { list: CarteleraList, icon: TheatersIcon };
