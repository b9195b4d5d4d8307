export { ImagenesSection } from './ImagenesSection';
export { Poster, withImages } from './Poster';
