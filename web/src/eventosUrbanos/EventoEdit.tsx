import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ImagenesSection } from '../imagenes';
import { EventoInputs } from './EventoInputs';

export const EventoEdit = () => (
  <ConflictAwareEdit below={<ImagenesSection />}>
    <EventoInputs />
  </ConflictAwareEdit>
);
