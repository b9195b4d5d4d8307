import { DateField } from 'react-admin';

const FORMAT: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit' };

/** An event's date and time, in the user's time zone: "20/2/2027, 21:30". */
export const fechaText = (fecha: string) => new Date(fecha).toLocaleString('es', FORMAT);

/** A show page labels a field by the `source` of its element: so it is named there. */
export const FechaField = ({ source = 'fecha' }: { source?: 'fecha' }) => <DateField source={source} showTime locales="es" options={FORMAT} />;
