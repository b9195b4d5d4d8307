import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ImagenesSection } from '../imagenes';
import { ObraInputs } from './ObraInputs';

export const ObraEdit = () => (
  <ConflictAwareEdit below={<ImagenesSection />}>
    <ObraInputs />
  </ConflictAwareEdit>
);
