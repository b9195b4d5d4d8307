export { ImagenesField, showsImages } from './ImagenesField';
export { ImagenesSection } from './ImagenesSection';
export { Poster, withImages } from './Poster';
