import { Create, SimpleForm } from 'react-admin';
import { ObraInputs } from './ObraInputs';

export const ObraCreate = () => (
  <Create redirect="show">
    <SimpleForm>
      <ObraInputs />
    </SimpleForm>
  </Create>
);
