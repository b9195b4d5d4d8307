import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ArtistaInputs } from './ArtistaInputs';

export const ArtistaEdit = () => (
  <ConflictAwareEdit>
    <ArtistaInputs editing />
  </ConflictAwareEdit>
);
