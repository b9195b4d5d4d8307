import GroupsIcon from '@mui/icons-material/Groups';
import type { RaRecord } from 'react-admin';
import { ParticipacionCreate } from './ParticipacionCreate';
import { ParticipacionEdit } from './ParticipacionEdit';
import { ParticipacionList } from './ParticipacionList';
import { ParticipacionShow } from './ParticipacionShow';

export default {
  list: ParticipacionList,
  show: ParticipacionShow,
  create: ParticipacionCreate,
  edit: ParticipacionEdit,
  icon: GroupsIcon,
  recordRepresentation: (p: RaRecord) => `#${p.id}`,
};
