import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ImagenesSection } from '../imagenes';
import { PeliculaInputs } from './PeliculaInputs';

export const PeliculaEdit = () => (
  <ConflictAwareEdit below={<ImagenesSection />}>
    <PeliculaInputs />
  </ConflictAwareEdit>
);
