import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { PeliculaInputs } from './PeliculaInputs';

export const PeliculaEdit = () => (
  <ConflictAwareEdit>
    <PeliculaInputs />
  </ConflictAwareEdit>
);
