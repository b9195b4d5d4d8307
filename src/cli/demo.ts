// The demo catalogue `cartelera seed` loads: records as an import takes them, naming categories and items by their name or title.
export interface SeedPelicula { titulo: string; sipnosis: string; duracion: number; categoria: string }
export interface SeedObra { titulo: string; descripcion: string; duracion: number; categoria: string }
export interface SeedEventoUrbano { titulo: string; descripcion: string; fecha: string; lugar: string; categoria: string }
export interface SeedArtista { dni: number; nombre: string; apellido: string; tipo: string; descripcion: string }
export interface SeedParticipacion { dni: number; tipo_evento: 'pelicula' | 'obra' | 'eventoUrbano'; titulo: string }

export const categorias: string[] = [
  'Drama',
  'Comedia',
  'Fantasía',
  'Suspenso',
  'Teatro clásico',
  'Tragedia',
  'Música',
  'Danza',
  'Arte urbano',
];

export const peliculas: SeedPelicula[] = [
  {
    titulo: 'Roma',
    sipnosis:
      'Ciudad de México, 1970-1971: Cleo, una empleada doméstica de origen mixteco, trabaja para una familia de clase media de la colonia Roma mientras su vida y la del país se resquebrajan.',
    duracion: 135,
    categoria: 'Drama',
  },
  {
    titulo: 'Amores perros',
    sipnosis:
      'Un violento accidente de tráfico en la Ciudad de México enlaza tres historias de amor, pérdida y lealtad en las que los perros tienen un papel decisivo.',
    duracion: 154,
    categoria: 'Drama',
  },
  {
    titulo: 'El laberinto del fauno',
    sipnosis:
      'En la España de 1944, Ofelia llega con su madre enferma al cuartel de su cruel padrastro, el capitán Vidal, y un fauno le encomienda tres pruebas para demostrar que es una princesa de un reino subterráneo.',
    duracion: 118,
    categoria: 'Fantasía',
  },
  {
    titulo: 'Relatos salvajes',
    sipnosis:
      'Seis historias independientes en las que personas comunes, empujadas por la injusticia, la frustración o el azar, cruzan la delgada línea que separa la civilización de la venganza.',
    duracion: 122,
    categoria: 'Comedia',
  },
  {
    titulo: 'El secreto de sus ojos',
    sipnosis:
      'Benjamín Espósito, empleado jubilado de un juzgado penal de Buenos Aires, decide escribir una novela sobre el asesinato de una joven en 1974, un caso que nunca dejó de obsesionarlo.',
    duracion: 129,
    categoria: 'Suspenso',
  },
  {
    titulo: 'Todo sobre mi madre',
    sipnosis:
      'Tras la muerte de su hijo Esteban el día en que cumple diecisiete años, Manuela, enfermera en Madrid, viaja a Barcelona en busca del padre del muchacho.',
    duracion: 101,
    categoria: 'Drama',
  },
  {
    titulo: 'Mar adentro',
    sipnosis:
      'La historia real de Ramón Sampedro, un marinero gallego tetrapléjico durante casi treinta años, que luchó ante los tribunales por su derecho a una muerte digna.',
    duracion: 125,
    categoria: 'Drama',
  },
  {
    titulo: 'Y tu mamá también',
    sipnosis:
      'Dos adolescentes de la Ciudad de México, Tenoch y Julio, emprenden un viaje por carretera con Luisa, una mujer española mayor que ellos, en busca de una playa paradisíaca llamada Boca del Cielo.',
    duracion: 106,
    categoria: 'Drama',
  },
  {
    titulo: 'Nueve reinas',
    sipnosis:
      'Dos estafadores que se conocen por casualidad en Buenos Aires intentan vender a un coleccionista una falsificación de una valiosa plancha de sellos conocida como las Nueve Reinas.',
    duracion: 114,
    categoria: 'Suspenso',
  },
  {
    titulo: 'La historia oficial',
    sipnosis:
      'En los últimos meses de la dictadura argentina, Alicia, profesora de historia, empieza a sospechar que su hija adoptiva podría ser hija de una desaparecida.',
    duracion: 112,
    categoria: 'Drama',
  },
  {
    titulo: 'Central do Brasil',
    sipnosis:
      'Dora, una exmaestra que escribe cartas para analfabetos en la estación central de Río de Janeiro, acompaña a Josué, un niño que acaba de perder a su madre, en la búsqueda de su padre por el nordeste brasileño.',
    duracion: 113,
    categoria: 'Drama',
  },
  {
    titulo: 'Volver',
    sipnosis:
      'Raimunda, una mujer de origen manchego que vive en Madrid, protege a su hija tras un suceso trágico mientras el fantasma de su madre parece haber regresado a su pueblo.',
    duracion: 121,
    categoria: 'Drama',
  },
];

export const obras: SeedObra[] = [
  {
    titulo: 'La Celestina',
    descripcion:
      'Tragicomedia de Calisto y Melibea de Fernando de Rojas (1499): Calisto, enamorado de Melibea, recurre a la astuta alcahueta Celestina, y la codicia de los criados desata la tragedia.',
    duracion: 120,
    categoria: 'Teatro clásico',
  },
  {
    titulo: 'La vida es sueño',
    descripcion:
      'Drama filosófico de Pedro Calderón de la Barca (1635) sobre Segismundo, príncipe de Polonia encerrado desde su nacimiento en una torre por su padre, el rey Basilio, a causa de un oráculo.',
    duracion: 110,
    categoria: 'Teatro clásico',
  },
  {
    titulo: 'El burlador de Sevilla',
    descripcion:
      'Comedia atribuida a Tirso de Molina que da origen al mito de don Juan: un noble seductor burla a varias mujeres hasta que la estatua del comendador don Gonzalo de Ulloa le pide cuentas.',
    duracion: 100,
    categoria: 'Teatro clásico',
  },
  {
    titulo: 'Don Juan Tenorio',
    descripcion:
      'Drama romántico de José Zorrilla (1844) en el que don Juan, tras una apuesta con don Luis Mejía, se enamora de doña Inés y encuentra la salvación por amor en la noche de difuntos.',
    duracion: 130,
    categoria: 'Teatro clásico',
  },
  {
    titulo: 'Bodas de sangre',
    descripcion:
      'Tragedia de Federico García Lorca (1933): el día de su boda, la Novia huye a caballo con Leonardo, su antiguo amor, y la persecución termina en una muerte anunciada por la Luna.',
    duracion: 95,
    categoria: 'Tragedia',
  },
  {
    titulo: 'Yerma',
    descripcion:
      'Poema trágico de Federico García Lorca (1934) sobre una mujer campesina cuyo deseo insatisfecho de ser madre se convierte en una obsesión que la conduce a un final desgarrador.',
    duracion: 90,
    categoria: 'Tragedia',
  },
  {
    titulo: 'La casa de Bernarda Alba',
    descripcion:
      'Última obra de Federico García Lorca (1936): tras enviudar, Bernarda impone a sus cinco hijas un luto de ocho años en una casa cerrada donde el deseo y la represión chocan con violencia.',
    duracion: 100,
    categoria: 'Drama',
  },
  {
    titulo: 'Luces de bohemia',
    descripcion:
      'Primer esperpento de Ramón del Valle-Inclán (1920), que sigue la última noche del poeta ciego Max Estrella por un Madrid absurdo, hambriento y brutal.',
    duracion: 120,
    categoria: 'Drama',
  },
];

export const eventosUrbanos: SeedEventoUrbano[] = [
  {
    titulo: 'Festival de Arte Urbano de Valparaíso',
    descripcion:
      'Muralistas de todo el continente pintan en directo fachadas y escaleras de los cerros porteños, con recorridos guiados, talleres abiertos y música en vivo.',
    fecha: '2026-11-14',
    lugar: 'Cerro Alegre, Valparaíso',
    categoria: 'Arte urbano',
  },
  {
    titulo: 'Milonga en la Plaza Dorrego',
    descripcion:
      'Milonga al aire libre con orquesta típica, clase abierta de tango para principiantes y exhibición de parejas profesionales bajo las luces de San Telmo.',
    fecha: '2026-09-20',
    lugar: 'Plaza Dorrego, San Telmo, Buenos Aires',
    categoria: 'Danza',
  },
  {
    titulo: 'Gran Desfile de Cumbia y Batucada',
    descripcion:
      'Comparsas, batucadas y grupos de cumbia recorren la avenida principal de la ciudad en un desfile gratuito que termina con un baile popular.',
    fecha: '2027-02-13',
    lugar: 'Avenida 18 de Julio, Montevideo',
    categoria: 'Música',
  },
  {
    titulo: 'Procesión de Día de Muertos del Centro Histórico',
    descripcion:
      'Desfile de catrinas, alebrijes gigantes y comparsas que recorre el Centro Histórico entre ofrendas, papel picado y flor de cempasúchil.',
    fecha: '2026-11-01',
    lugar: 'Zócalo, Ciudad de México',
    categoria: 'Arte urbano',
  },
  {
    titulo: 'Festival de Teatro Callejero de Lavapiés',
    descripcion:
      'Tres días de teatro de calle, clown, títeres y acrobacia en plazas y esquinas del barrio, con funciones gratuitas para todos los públicos.',
    fecha: '2027-05-15',
    lugar: 'Plaza de Lavapiés, Madrid',
    categoria: 'Comedia',
  },
  {
    titulo: 'Noche de Boleros en el Parque Simón Bolívar',
    descripcion:
      'Concierto gratuito al aire libre con un repertorio de boleros clásicos latinoamericanos interpretados por solistas y una orquesta de cuerdas.',
    fecha: '2027-03-06',
    lugar: 'Parque Metropolitano Simón Bolívar, Bogotá',
    categoria: 'Música',
  },
];

export const artistas: SeedArtista[] = [
  {
    dni: 20111222,
    nombre: 'Alfonso',
    apellido: 'Cuarón',
    tipo: 'director',
    descripcion:
      'Director mexicano nacido en la Ciudad de México en 1961, ganador del Óscar a mejor dirección por Gravity y por Roma.',
  },
  {
    dni: 20333444,
    nombre: 'Guillermo',
    apellido: 'del Toro',
    tipo: 'director',
    descripcion:
      'Director mexicano nacido en Guadalajara en 1964, maestro del cine fantástico y ganador del Óscar a mejor película y mejor dirección por La forma del agua.',
  },
  {
    dni: 21555666,
    nombre: 'Pedro',
    apellido: 'Almodóvar',
    tipo: 'director',
    descripcion:
      'Director y guionista español nacido en Calzada de Calatrava en 1949, ganador de dos premios Óscar por Todo sobre mi madre y Hable con ella.',
  },
  {
    dni: 22777888,
    nombre: 'Gael',
    apellido: 'García Bernal',
    tipo: 'actor',
    descripcion:
      'Actor y director mexicano nacido en Guadalajara en 1978, que alcanzó reconocimiento internacional con Amores perros e Y tu mamá también.',
  },
  {
    dni: 23123456,
    nombre: 'Ricardo',
    apellido: 'Darín',
    tipo: 'actor',
    descripcion:
      'Actor argentino nacido en Buenos Aires en 1957, protagonista de algunos de los mayores éxitos del cine argentino contemporáneo.',
  },
  {
    dni: 24234567,
    nombre: 'Javier',
    apellido: 'Bardem',
    tipo: 'actor',
    descripcion:
      'Actor español nacido en Las Palmas de Gran Canaria en 1969, ganador del Óscar al mejor actor de reparto por No es país para viejos.',
  },
  {
    dni: 25345678,
    nombre: 'Penélope',
    apellido: 'Cruz',
    tipo: 'actriz',
    descripcion:
      'Actriz española nacida en Alcobendas en 1974, primera intérprete española en ganar un Óscar de actuación, por Vicky Cristina Barcelona.',
  },
  {
    dni: 26456789,
    nombre: 'Cecilia',
    apellido: 'Roth',
    tipo: 'actriz',
    descripcion:
      'Actriz argentina nacida en Buenos Aires en 1956, ganadora del Goya a la mejor actriz por Martín (Hache) y por Todo sobre mi madre.',
  },
  {
    dni: 27567890,
    nombre: 'Yalitza',
    apellido: 'Aparicio',
    tipo: 'actriz',
    descripcion:
      'Actriz y maestra mexicana nacida en Tlaxiaco, Oaxaca, en 1993, primera mujer indígena mexicana nominada al Óscar a la mejor actriz por Roma.',
  },
  {
    dni: 28678901,
    nombre: 'Norma',
    apellido: 'Aleandro',
    tipo: 'actriz',
    descripcion:
      'Actriz, dramaturga y directora argentina nacida en Buenos Aires en 1936, premiada como mejor actriz en Cannes por La historia oficial.',
  },
  {
    dni: 29789012,
    nombre: 'Núria',
    apellido: 'Espert',
    tipo: 'actriz',
    descripcion:
      'Actriz y directora teatral catalana nacida en L\'Hospitalet de Llobregat en 1935, gran intérprete de Lorca y Premio Princesa de Asturias de las Artes.',
  },
  {
    dni: 30890123,
    nombre: 'Blanca',
    apellido: 'Portillo',
    tipo: 'actriz',
    descripcion:
      'Actriz y directora madrileña nacida en 1963, figura del teatro clásico español y ganadora del Goya a la mejor actriz por Maixabel.',
  },
  {
    dni: 31901234,
    nombre: 'Valentina',
    apellido: 'Morales',
    tipo: 'bailarina',
    descripcion:
      'Bailarina de tango porteña formada en las milongas de San Telmo, que combina la danza social con la performance en espacios públicos.',
  },
  {
    dni: 32012345,
    nombre: 'Joaquín',
    apellido: 'Salazar',
    tipo: 'cantante',
    descripcion:
      'Cantante y percusionista que recorre festivales callejeros de América Latina con un repertorio de boleros, cumbias y sones tradicionales.',
  },
];

export const participaciones: SeedParticipacion[] = [
  // Películas
  { dni: 20111222, tipo_evento: 'pelicula', titulo: 'Roma' },
  { dni: 20111222, tipo_evento: 'pelicula', titulo: 'Y tu mamá también' },
  { dni: 20333444, tipo_evento: 'pelicula', titulo: 'El laberinto del fauno' },
  { dni: 21555666, tipo_evento: 'pelicula', titulo: 'Todo sobre mi madre' },
  { dni: 21555666, tipo_evento: 'pelicula', titulo: 'Volver' },
  { dni: 22777888, tipo_evento: 'pelicula', titulo: 'Amores perros' },
  { dni: 22777888, tipo_evento: 'pelicula', titulo: 'Y tu mamá también' },
  { dni: 23123456, tipo_evento: 'pelicula', titulo: 'Nueve reinas' },
  { dni: 23123456, tipo_evento: 'pelicula', titulo: 'El secreto de sus ojos' },
  { dni: 23123456, tipo_evento: 'pelicula', titulo: 'Relatos salvajes' },
  { dni: 24234567, tipo_evento: 'pelicula', titulo: 'Mar adentro' },
  { dni: 25345678, tipo_evento: 'pelicula', titulo: 'Todo sobre mi madre' },
  { dni: 25345678, tipo_evento: 'pelicula', titulo: 'Volver' },
  { dni: 26456789, tipo_evento: 'pelicula', titulo: 'Todo sobre mi madre' },
  { dni: 27567890, tipo_evento: 'pelicula', titulo: 'Roma' },
  { dni: 28678901, tipo_evento: 'pelicula', titulo: 'La historia oficial' },
  { dni: 30890123, tipo_evento: 'pelicula', titulo: 'Volver' },
  // Obras
  { dni: 29789012, tipo_evento: 'obra', titulo: 'Yerma' },
  { dni: 30890123, tipo_evento: 'obra', titulo: 'La vida es sueño' },
  // Eventos urbanos
  { dni: 31901234, tipo_evento: 'eventoUrbano', titulo: 'Milonga en la Plaza Dorrego' },
  { dni: 31901234, tipo_evento: 'eventoUrbano', titulo: 'Festival de Arte Urbano de Valparaíso' },
  { dni: 31901234, tipo_evento: 'eventoUrbano', titulo: 'Festival de Teatro Callejero de Lavapiés' },
  { dni: 32012345, tipo_evento: 'eventoUrbano', titulo: 'Noche de Boleros en el Parque Simón Bolívar' },
  { dni: 32012345, tipo_evento: 'eventoUrbano', titulo: 'Gran Desfile de Cumbia y Batucada' },
  { dni: 32012345, tipo_evento: 'eventoUrbano', titulo: 'Procesión de Día de Muertos del Centro Histórico' },
];

export interface SeedLugar { nombre: string; direccion: string; latitud: number; longitud: number; accesible: boolean; url: string | null }
export interface SeedFuncion { tipo_evento: 'pelicula' | 'obra' | 'eventoUrbano'; evento: string; lugar: string; inicio: string }

/** Venues of Buenos Aires, the city of the demo's listings, with their coordinates. */
export const lugares: SeedLugar[] = [
  { nombre: 'Usina del Arte', direccion: 'Agustín R. Caffarena 1, La Boca, Buenos Aires', latitud: -34.628611, longitud: -58.356944, accesible: true, url: 'https://usinadelarte.ar' },
  { nombre: 'Teatro San Martín', direccion: 'Av. Corrientes 1530, Buenos Aires', latitud: -34.603722, longitud: -58.387444, accesible: true, url: 'https://complejoteatral.gob.ar' },
  { nombre: 'Cine Gaumont', direccion: 'Av. Rivadavia 1635, Buenos Aires', latitud: -34.609444, longitud: -58.391667, accesible: true, url: null },
  { nombre: 'Cine Lorca', direccion: 'Av. Corrientes 1428, Buenos Aires', latitud: -34.604167, longitud: -58.386111, accesible: false, url: null },
  { nombre: 'Teatro Cervantes', direccion: 'Libertad 815, Buenos Aires', latitud: -34.598889, longitud: -58.383611, accesible: true, url: 'https://teatrocervantes.gob.ar' },
  { nombre: 'Plaza Dorrego', direccion: 'Humberto 1º y Defensa, San Telmo, Buenos Aires', latitud: -34.620556, longitud: -58.371389, accesible: true, url: null },
];

const DAY_MS = 86_400_000;

/**
 * Three weeks of showtimes from `today` (YYYY-MM-DD, in the city's zone): films twice a day at the
 * cinemas, plays from Thursday to Sunday, the milonga on Sundays, so that what's on answers
 * something on a fresh install.
 */
export function funciones(today: string): SeedFuncion[] {
  const start = Date.parse(`${today}T00:00:00Z`);
  const shows: SeedFuncion[] = [];
  for (let d = 0; d < 21; d++) {
    const date = new Date(start + d * DAY_MS);
    const day = date.toISOString().slice(0, 10);
    const weekday = date.getUTCDay();
    const at = (tipo_evento: SeedFuncion['tipo_evento'], evento: string, lugar: string, hora: string) => shows.push({ tipo_evento, evento, lugar, inicio: `${day}T${hora}` });
    at('pelicula', d % 2 === 0 ? 'Relatos salvajes' : 'El secreto de sus ojos', 'Cine Gaumont', '18:00');
    at('pelicula', 'Nueve reinas', 'Cine Gaumont', '21:30');
    at('pelicula', d % 2 === 0 ? 'La historia oficial' : 'Roma', 'Cine Lorca', '19:15');
    if (weekday >= 4 || weekday === 0) {
      at('obra', 'Bodas de sangre', 'Teatro San Martín', '20:30');
      at('obra', 'La vida es sueño', 'Teatro Cervantes', '21:00');
    }
    if (weekday === 6) at('obra', 'Yerma', 'Usina del Arte', '20:00');
    if (weekday === 0) at('eventoUrbano', 'Milonga en la Plaza Dorrego', 'Plaza Dorrego', '19:00');
  }
  return shows;
}
