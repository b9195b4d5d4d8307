import polyglotI18nProvider from 'ra-i18n-polyglot';
import { Admin, CustomRoutes, Resource, defaultDarkTheme } from 'react-admin';
import { Route } from 'react-router-dom';
import artistas from './artistas';
import categorias from './categorias';
import cambios from './changes';
import { dataProvider } from './dataProvider';
import eventosUrbanos from './eventosUrbanos';
import { spanishMessages } from './i18n/es';
import { Layout, theme } from './layout';
import obras from './obras';
import participaciones from './participaciones';
import peliculas from './peliculas';
import { TransferPage } from './transfer/TransferPage';
import { Papelera } from './changes/Papelera';
import cartelera from './cartelera';
import funciones from './funciones';
import { SeriePage } from './funciones/SeriePage';
import lugares from './lugares';

const i18nProvider = polyglotI18nProvider(() => spanishMessages, 'es', [{ locale: 'es', name: 'Español' }]);

// Resource names are the service's paths: the hash routes are #/peliculas, #/Obras/3/show…
export const App = () => (
  <Admin
    title="Cartelera"
    dataProvider={dataProvider}
    i18nProvider={i18nProvider}
    layout={Layout}
    theme={theme}
    // react-admin's own dark theme, so the app bar keeps its light/dark switch.
    darkTheme={defaultDarkTheme}
    // Telemetry would load an image from marmelab's server: the admin's CSP allows this service only.
    disableTelemetry
  >
    <Resource name="peliculas" {...peliculas} />
    <Resource name="Obras" {...obras} />
    <Resource name="eventosUrbanos" {...eventosUrbanos} />
    <Resource name="cartelera" {...cartelera} />
    <Resource name="lugares" {...lugares} />
    <Resource name="funciones" {...funciones} />
    <Resource name="artistas" {...artistas} />
    <Resource name="participaciones" {...participaciones} />
    <Resource name="categorias" {...categorias} />
    <Resource name="cambios" {...cambios} />
    <CustomRoutes>
      <Route path="/importar" element={<TransferPage />} />
      <Route path="/papelera" element={<Papelera />} />
      <Route path="/serie" element={<SeriePage />} />
    </CustomRoutes>
  </Admin>
);
