import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { backToItem } from './FuncionCreate';
import { FuncionInputs } from './FuncionInputs';

export const FuncionEdit = () => (
  <ConflictAwareEdit redirect={backToItem}>
    <FuncionInputs />
  </ConflictAwareEdit>
);
