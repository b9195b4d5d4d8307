import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { CategoriaInputs } from './CategoriaInputs';

export const CategoriaEdit = () => (
  <ConflictAwareEdit>
    <CategoriaInputs />
  </ConflictAwareEdit>
);
