import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ObraInputs } from './ObraInputs';

export const ObraEdit = () => (
  <ConflictAwareEdit>
    <ObraInputs />
  </ConflictAwareEdit>
);
