/**
 * The image formats cartelera keeps, judged by a file's content (src/images/judge.ts): what an
 * upload may be, and what the admin's file chooser offers. Apart from fields.ts so that the admin
 * takes it without the schemas.
 */
export const TIPOS_IMAGEN = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
