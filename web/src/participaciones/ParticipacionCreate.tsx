import { Create, SimpleForm } from 'react-admin';
import { ParticipacionInputs } from './ParticipacionInputs';

export const ParticipacionCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <ParticipacionInputs />
    </SimpleForm>
  </Create>
);
