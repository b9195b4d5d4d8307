import { TextInput } from 'react-admin';

export const CategoriaInputs = () => <TextInput source="nombre" fullWidth />;
