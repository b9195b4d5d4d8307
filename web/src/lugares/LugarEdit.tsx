import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { LugarInputs } from './LugarInputs';

export const LugarEdit = () => (
  <ConflictAwareEdit>
    <LugarInputs />
  </ConflictAwareEdit>
);
