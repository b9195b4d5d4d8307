import { Create, SimpleForm } from 'react-admin';
import { PeliculaInputs } from './PeliculaInputs';

export const PeliculaCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <PeliculaInputs />
    </SimpleForm>
  </Create>
);
