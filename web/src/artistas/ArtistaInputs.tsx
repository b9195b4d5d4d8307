import { NumberInput, TextInput } from 'react-admin';

/** An artist's fields; the dni is the key, chosen on creation and fixed afterwards. */
export const ArtistaInputs = ({ editing = false }: { editing?: boolean }) => (
  <>
    <NumberInput source="dni" readOnly={editing} />
    <TextInput source="nombre" fullWidth />
    <TextInput source="apellido" fullWidth />
    <TextInput source="tipo" fullWidth />
    <TextInput source="descripcion" multiline minRows={3} fullWidth />
  </>
);
