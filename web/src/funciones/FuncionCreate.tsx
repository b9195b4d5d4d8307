import { Create, SimpleForm, type RaRecord } from 'react-admin';
import { itemResourceOf } from '../common/tipoEvento';
import { FuncionInputs } from './FuncionInputs';

/** Back to the page of the movie, work or event the showtime is of, where its Funciones are. */
export const backToItem = (_resource?: string, _id?: unknown, data?: Partial<RaRecord>) => `/${itemResourceOf(data?.tipo_evento)}/${data?.evento_id}/show`;

export const FuncionCreate = () => (
  <Create redirect={backToItem}>
    <SimpleForm>
      <FuncionInputs />
    </SimpleForm>
  </Create>
);
