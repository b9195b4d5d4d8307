import { Create, SimpleForm } from 'react-admin';
import { EventoInputs } from './EventoInputs';

export const EventoCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <EventoInputs />
    </SimpleForm>
  </Create>
);
