import { Create, SimpleForm } from 'react-admin';
import { ArtistaInputs } from './ArtistaInputs';

export const ArtistaCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <ArtistaInputs />
    </SimpleForm>
  </Create>
);
