import { ConflictAwareEdit } from '../common/ConflictAwareEdit';
import { ParticipacionInputs } from './ParticipacionInputs';

export const ParticipacionEdit = () => (
  <ConflictAwareEdit>
    <ParticipacionInputs />
  </ConflictAwareEdit>
);
