import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ImagenesSection } from '../imagenes';
import { ArtistaInputs } from './ArtistaInputs';

export const ArtistaEdit = () => (
  <ConflictAwareEdit below={<ImagenesSection />}>
    <ArtistaInputs editing />
  </ConflictAwareEdit>
);
