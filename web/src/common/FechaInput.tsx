import { useEffect, useState } from 'react';
import { FieldTitle, InputHelperText, ResettableTextField, useInput } from 'react-admin';
import { fechaFromText, fechaText, isFecha } from './fecha';

const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Props {
  source: string;
  /** A day and its time of day (a form's `fecha`), or a day alone (the filters Desde and Hasta: `2026-11-14`). */
  time?: boolean;
  alwaysOn?: boolean;
}

/**
 * A date typed as Spanish speakers write it, whatever the browser's language: `25/12/2026` (a whole
 * day) or `25/12/2026 21:30`; never converted to the browser's time zone (see fecha.ts). The form
 * holds what the text means, or the text itself while it means nothing, which the validation names.
 */
export const FechaInput = ({ source, time = true, alwaysOn: _ }: Props) => {
  const valueOf = (text: string): string | null => {
    if (text.trim() === '') return null;
    const fecha = fechaFromText(text, { time });
    if (fecha === undefined) return text;
    return time ? fecha : fecha.slice(0, 10);
  };
  const shown = (value: unknown): string => {
    if (typeof value === 'string' && PLAIN_DATE.test(value)) return fechaText(`${value}T00:00:00.000Z`);
    return isFecha(value) ? fechaText(value) : String(value ?? '');
  };
  const readable = (value: unknown) =>
    value === null || value === undefined || value === '' || (time ? isFecha(value) : PLAIN_DATE.test(String(value)))
      ? undefined
      : `cartelera.fecha.${time ? 'invalid' : 'invalidDay'}`;
  const {
    field,
    fieldState: { error, invalid },
    id,
    isRequired,
  } = useInput({ source, validate: readable, format: (v: unknown) => v, parse: (v: unknown) => v });
  const [text, setText] = useState(() => shown(field.value));
  // A value set from elsewhere (a reloaded record, a cleared filter) replaces what was typed.
  useEffect(() => {
    setText((typed) => (valueOf(typed) === (field.value ?? null) ? typed : shown(field.value)));
  }, [field.value]);
  return (
    <ResettableTextField
      id={id}
      name={field.name}
      inputRef={field.ref}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        field.onChange(valueOf(event.target.value));
      }}
      onBlur={field.onBlur}
      label={<FieldTitle source={source} isRequired={isRequired} />}
      placeholder={time ? 'dd/mm/aaaa hh:mm' : 'dd/mm/aaaa'}
      error={invalid}
      helperText={<InputHelperText error={error?.message} helperText={time ? 'cartelera.fecha.help' : false} />}
      inputProps={{ inputMode: 'text', autoComplete: 'off' }}
      className={`ra-input ra-input-${source}`}
    />
  );
};
