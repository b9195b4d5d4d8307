import { Create, SimpleForm } from 'react-admin';
import { CategoriaInputs } from './CategoriaInputs';

export const CategoriaCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <CategoriaInputs />
    </SimpleForm>
  </Create>
);
