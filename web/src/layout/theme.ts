import type { Theme } from '@mui/material/styles';
import { defaultTheme, type RaThemeOptions } from 'react-admin';

// Colours dark enough for WCAG 2.2 AA (4.5:1 for text) on every background the admin draws them on:
// react-admin's blues and red fall short on white, on the filled inputs' grey and on the form's toolbar.
const blue = '#1565c0';
const red = '#b71c1c';

/** react-admin's default theme, with contrast enough for everyone to read it. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: blue },
    secondary: { main: blue, contrastText: '#fff' },
    error: { main: red },
  },
  components: {
    ...defaultTheme.components,
    // A disabled field's help still has to be read: it says why the field waits.
    MuiFormHelperText: { styleOverrides: { root: ({ theme }: { theme: Theme }) => ({ '&.Mui-disabled': { color: theme.palette.text.secondary } }) } },
    // An empty list's sentence and the missing page's, in grey that can be read rather than faded.
    RaEmpty: { styleOverrides: { root: ({ theme }: { theme: Theme }) => ({ '& .RaEmpty-message': { color: theme.palette.text.secondary } }) } },
    RaNotFound: { styleOverrides: { root: ({ theme }: { theme: Theme }) => ({ '& .RaNotFound-message': { opacity: 1, color: theme.palette.text.secondary } }) } },
  },
};
