/** What every target is seeded with, and what the ceiling answers: one generator, so body sizes match. */

export const CATEGORY_COUNT = 20;

export interface Movie {
  titulo: string;
  sipnosis: string;
  duracion: number;
  categoria_id: number;
}

export const category = (n: number) => ({ nombre: `Categoría ${n}` });

/** Movie `n` (from 1): "Película n", a synopsis of about 100 characters, a category among the 20. */
export function movie(n: number): Movie {
  return {
    titulo: `Película ${n}`,
    sipnosis: `Sinopsis ${n}: una familia del barrio sur atraviesa un verano de cambios en la ciudad.`.padEnd(100, '.'),
    duracion: 60 + (n % 120),
    categoria_id: ((n - 1) % CATEGORY_COUNT) + 1,
  };
}
