import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ImagenesSection } from '../imagenes';
import { LugarInputs } from './LugarInputs';

export const LugarEdit = () => (
  <ConflictAwareEdit below={<ImagenesSection />}>
    <LugarInputs />
  </ConflictAwareEdit>
);
