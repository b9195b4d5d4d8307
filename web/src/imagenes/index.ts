export { ImagenesField, showsImages } from './ImagenesField';
export { ImagenesSection } from './ImagenesSection';
export { Poster } from './Poster';
