import { Create, SimpleForm } from 'react-admin';
import { LugarInputs } from './LugarInputs';

export const LugarCreate = () => (
  <Create redirect="show">
    <SimpleForm defaultValues={{ accesible: false }}>
      <LugarInputs />
    </SimpleForm>
  </Create>
);
