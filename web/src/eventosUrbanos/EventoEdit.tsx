import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { EventoInputs } from './EventoInputs';

export const EventoEdit = () => (
  <ConflictAwareEdit>
    <EventoInputs />
  </ConflictAwareEdit>
);
